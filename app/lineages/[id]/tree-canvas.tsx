'use client';

import { memo, useCallback, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type Ref } from 'react';
import type { LaidOutEdge, TreeLayout } from '@/lib/dashboard/lineages-layout.ts';
import { fitView, initialView, revealRect, transformOf, zoomAt, type View } from '@/lib/dashboard/lineages-view.ts';

export interface CanvasHandle {
  zoomBy: (factor: number) => void;
  fit: () => void;
  reveal: (key: string) => void;
}

// A press that moves further than this is a pan, and the click that ends it opens nothing.
const DRAG_THRESHOLD_PX = 4;
const WHEEL_ZOOM_RATE = 0.0015;

// The pannable, zoomable SVG. The view lives in a ref and is written straight to one transform
// attribute: panning and zooming re-render nothing and never lay the tree out again.
export function TreeCanvas({
  layout,
  focusKey,
  handle,
  onKeyDown,
  children,
}: {
  layout: TreeLayout;
  focusKey: string;
  handle: Ref<CanvasHandle>;
  onKeyDown: (event: KeyboardEvent<SVGSVGElement>) => void;
  children: React.ReactNode;
}) {
  const svgRef = useRef<SVGSVGElement>(null);
  const groupRef = useRef<SVGGElement>(null);
  const view = useRef<View>({ x: 0, y: 0, k: 1 });
  const drag = useRef<{ pointerId: number; startX: number; startY: number; view: View; moved: boolean } | null>(null);
  const suppressClick = useRef(false);

  const viewport = useCallback(() => {
    const box = svgRef.current?.getBoundingClientRect();
    return { width: box?.width ?? 0, height: box?.height ?? 0 };
  }, []);

  const apply = useCallback((next: View) => {
    view.current = next;
    groupRef.current?.setAttribute('transform', transformOf(next));
  }, []);

  const rectOf = useCallback((key: string) => layout.nodes.find((node) => node.key === key), [layout]);

  useImperativeHandle(
    handle,
    () => ({
      zoomBy: (factor) => {
        const { width, height } = viewport();
        apply(zoomAt(view.current, factor, { x: width / 2, y: height / 2 }));
      },
      fit: () => apply(fitView(layout, viewport())),
      reveal: (key) => {
        const rect = rectOf(key);
        if (rect) apply(revealRect(view.current, rect, viewport()));
      },
    }),
    [apply, layout, rectOf, viewport],
  );

  // The first view needs the viewport's size: set before the first paint, then shown.
  const [ready, setReady] = useState(false);
  useLayoutEffect(() => {
    if (ready) return;
    const focus = rectOf(focusKey);
    if (!focus) return;
    apply(initialView(layout, viewport(), focus));
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the size is known only after layout; set before the first paint
    setReady(true);
    // For the render-time measurement in e2e/lineages.spec.ts.
    performance.mark('lineage-tree-ready');
  }, [apply, focusKey, layout, ready, rectOf, viewport]);

  // React's onWheel is passive; zooming must stop the page from scrolling.
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const box = svg.getBoundingClientRect();
      apply(zoomAt(view.current, Math.exp(-event.deltaY * WHEEL_ZOOM_RATE), { x: event.clientX - box.left, y: event.clientY - box.top }));
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, [apply]);

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    drag.current = { pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, view: view.current, moved: false };
  };
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const dx = event.clientX - current.startX;
    const dy = event.clientY - current.startY;
    if (!current.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
    if (!current.moved) {
      current.moved = true;
      event.currentTarget.setPointerCapture(event.pointerId);
    }
    apply({ ...current.view, x: current.view.x + dx, y: current.view.y + dy });
  };
  const onPointerUp = (event: PointerEvent<SVGSVGElement>) => {
    if (drag.current?.pointerId !== event.pointerId) return;
    suppressClick.current = drag.current.moved;
    drag.current = null;
  };

  return (
    <svg
      ref={svgRef}
      data-testid="lineage-tree"
      data-ready={ready}
      className="block h-full w-full cursor-grab touch-none select-none bg-[radial-gradient(#e4e4e7_1px,transparent_1px)] [background-size:16px_16px] active:cursor-grabbing data-[ready=false]:invisible"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onClickCapture={(event) => {
        if (!suppressClick.current) return;
        suppressClick.current = false;
        event.preventDefault();
        event.stopPropagation();
      }}
      onKeyDown={onKeyDown}
    >
      <defs>
        <marker id="tree-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" fill="#a1a1aa" />
        </marker>
      </defs>
      <g ref={groupRef}>
        <TreeEdges edges={layout.edges} />
        <g role="tree" aria-label="Generations and attempts">
          {children}
        </g>
      </g>
    </svg>
  );
}

const TreeEdges = memo(function TreeEdges({ edges }: { edges: LaidOutEdge[] }) {
  return (
    <g aria-hidden>
      {edges.map((edge) => (
        <g key={edge.key}>
          <path d={edge.path} fill="none" stroke="#a1a1aa" strokeWidth={1.5} markerEnd="url(#tree-arrow)" />
          <text
            x={edge.labelX}
            y={edge.labelY}
            textAnchor="middle"
            fontSize={11}
            fill="#52525b"
            stroke="#fafafa"
            strokeWidth={4}
            paintOrder="stroke"
          >
            {edge.label}
          </text>
        </g>
      ))}
    </g>
  );
});
