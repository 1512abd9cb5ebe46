'use client';

import { useQuery } from '@tanstack/react-query';
import { MarkerType, ReactFlow, ReactFlowProvider, useReactFlow, type Edge, type Viewport } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { Route } from 'next';
import { useRouter } from 'next/navigation';
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { LineageTree } from '@/lib/dashboard/index.ts';
import { inGroup, IN_PROGRESS_STATES } from '@/lib/states/index.ts';
import { fetchJson } from '../../_components/http.ts';
import { NodeDetails } from './node-details.tsx';
import { nodeHref } from './node-href.ts';
import { treeGraph, type GraphNode, type NavDirection, type TreeGraph } from './tree-graph.ts';
import { TreeLegend } from './tree-legend.tsx';
import { TreeNodeCard, type TreeFlowNode } from './tree-node.tsx';

const LIVE_REFETCH_MS = 3_000;
const MIN_ZOOM = 0.1;
const MAX_ZOOM = 2.5;
// Below this, node text is too small to read: the first view shows part of the tree instead.
const READABLE_ZOOM = 0.7;
// A revealed node keeps its incoming edge and label in view, where the viewport has room.
const REVEAL_MARGIN_X = 140;
const REVEAL_MARGIN_Y = 40;
const NODE_TYPES = { lineage: TreeNodeCard };

// Tall enough for the tree at 1:1 (a flat chain needs little), within what a screen shows.
function canvasHeight(contentHeight: number): string {
  return `clamp(360px, ${Math.ceil(contentHeight) + 80}px, min(70vh, 720px))`;
}

const ARROWS: Record<string, NavDirection> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };

const BUTTON = 'grid h-7 min-w-7 place-items-center rounded-md border border-zinc-300 bg-white px-2 text-sm font-medium text-zinc-700 hover:bg-zinc-50';

// The smallest pan that brings a node's box, with a margin, into the screen (the same viewport when it is in view).
function revealed(view: Viewport, rect: { x: number; y: number; width: number; height: number }, screen: { width: number; height: number }): Viewport {
  const { x, y, zoom } = view;
  const left = x + rect.x * zoom;
  const top = y + rect.y * zoom;
  const right = left + rect.width * zoom;
  const bottom = top + rect.height * zoom;
  const marginX = Math.max(0, Math.min(REVEAL_MARGIN_X, (screen.width - rect.width * zoom) / 2));
  const marginY = Math.max(0, Math.min(REVEAL_MARGIN_Y, (screen.height - rect.height * zoom) / 2));
  let dx = 0;
  let dy = 0;
  if (left < marginX) dx = marginX - left;
  else if (right > screen.width - marginX) dx = screen.width - marginX - right;
  if (top < marginY) dy = marginY - top;
  else if (bottom > screen.height - marginY) dy = screen.height - marginY - bottom;
  return dx === 0 && dy === 0 ? view : { x: x + dx, y: y + dy, zoom };
}

function extent(graph: TreeGraph): { width: number; height: number } {
  return { width: Math.max(...graph.nodes.map((n) => n.x + n.width)) + 24, height: Math.max(...graph.nodes.map((n) => n.y + n.height)) + 24 };
}

// The tree, its controls and the details of the node in focus (or under the pointer).
export function LineageTreeView({ initial }: { initial: LineageTree }) {
  return (
    <ReactFlowProvider>
      <TreeFlow initial={initial} />
    </ReactFlowProvider>
  );
}

function TreeFlow({ initial }: { initial: LineageTree }) {
  const router = useRouter();
  const flow = useReactFlow<TreeFlowNode>();
  const { data: tree } = useQuery({
    queryKey: ['lineage-tree', initial.id, initial.policy],
    queryFn: () => fetchJson<{ tree: LineageTree }>(`/api/lineages/${initial.id}/tree?policy=${encodeURIComponent(initial.policy)}`).then((body) => body.tree),
    initialData: initial,
    refetchInterval: (q) => {
      const data = q.state.data;
      const live = data?.status === 'evolving' || data?.generations.some((g) => inGroup(g.state, IN_PROGRESS_STATES));
      return live ? LIVE_REFETCH_MS : false;
    },
  });
  // Query results are structurally shared: an unchanged tree keeps its identity and its layout.
  const graph = useMemo(() => treeGraph(tree), [tree]);
  const size = useMemo(() => extent(graph), [graph]);
  const hrefs = useMemo(() => new Map([...graph.items.values()].map((item) => [item.key, nodeHref(tree, item)])), [graph, tree]);

  const [focusKey, setFocusKey] = useState(graph.initialKey);
  const [hoverKey, setHoverKey] = useState<string | null>(null);
  const currentFocus = graph.items.has(focusKey) ? focusKey : graph.initialKey;
  const box = useRef<HTMLDivElement>(null);
  const elements = useRef(new Map<string, HTMLAnchorElement>());

  const register = useCallback((key: string, element: HTMLAnchorElement | null) => {
    if (element) elements.current.set(key, element);
    else elements.current.delete(key);
  }, []);
  const onOpen = useCallback(
    (event: MouseEvent<Element>, href: string) => {
      // Let the browser handle new-tab and download gestures; a plain click navigates in the app.
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
      event.preventDefault();
      router.push(href as Route);
    },
    [router],
  );

  // The box a keyboard stop sits in: its own node, or the node its attempt strip belongs to.
  const boxOf = useCallback(
    (key: string): GraphNode | undefined => {
      const item = graph.items.get(key);
      const nodeKey = item?.kind === 'attempt' ? item.parentKey : key;
      return graph.nodes.find((n) => n.key === nodeKey);
    },
    [graph],
  );

  const reveal = useCallback(
    (key: string) => {
      const rect = boxOf(key);
      const el = box.current;
      if (!rect || !el) return;
      const current = flow.getViewport();
      const next = revealed(current, rect, { width: el.clientWidth, height: el.clientHeight });
      if (next !== current) void flow.setViewport(next);
    },
    [boxOf, flow],
  );

  // The first view, computed from the canvas's size before React Flow first draws, so the tree
  // appears in place: everything if that stays readable, else 1:1 with the focused node in view.
  const [firstView, setFirstView] = useState<Viewport | null>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (firstView || !el) return;
    const screen = { width: el.clientWidth, height: el.clientHeight };
    const k = Math.max(MIN_ZOOM, Math.min(1, screen.width / size.width, screen.height / size.height));
    if (k >= READABLE_ZOOM) setFirstView({ x: (screen.width - size.width * k) / 2, y: (screen.height - size.height * k) / 2, zoom: k });
    else {
      const flat = { x: 0, y: size.height <= screen.height ? (screen.height - size.height) / 2 : 0, zoom: 1 };
      const focus = boxOf(graph.initialKey);
      setFirstView(focus ? revealed(flat, focus, screen) : flat);
    }
  }, [boxOf, firstView, graph.initialKey, size]);
  useLayoutEffect(() => {
    // For the render-time measurement in e2e/lineages.spec.ts and bench/browser.ts.
    if (firstView && performance.getEntriesByName('lineage-tree-ready').length === 0) performance.mark('lineage-tree-ready');
  }, [firstView]);

  const fit = useCallback(() => void flow.fitView({ maxZoom: 1, minZoom: MIN_ZOOM, padding: 0.05 }), [flow]);

  const moveFocus = (key: string) => {
    setFocusKey(key);
    elements.current.get(key)?.focus({ preventScroll: true });
    reveal(key);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const direction = ARROWS[event.key];
    if (direction) {
      event.preventDefault();
      const next = graph.nav[currentFocus]?.[direction];
      if (next) moveFocus(next);
      return;
    }
    if (event.key === 'Enter') {
      event.preventDefault();
      router.push((hrefs.get(currentFocus) ?? '#') as Route);
    } else if (event.key === '+' || event.key === '=') void flow.zoomIn();
    else if (event.key === '-') void flow.zoomOut();
    else if (event.key === '0') fit();
    else if (event.key === 'Home') moveFocus(graph.initialKey);
  };

  const nodes = useMemo(
    (): TreeFlowNode[] =>
      graph.nodes.map((node) => ({
        id: node.key,
        type: 'lineage',
        position: { x: node.x, y: node.y },
        width: node.width,
        height: node.height,
        draggable: false,
        selectable: false,
        focusable: false,
        data: { node, tree, items: graph.items, hrefs, focusKey: currentFocus, onFocusItem: setFocusKey, onHoverItem: setHoverKey, onOpen, register },
      })),
    [graph, tree, hrefs, currentFocus, onOpen, register],
  );
  const edges = useMemo(
    (): Edge[] =>
      graph.edges.map((edge) => ({
        id: edge.key,
        source: edge.from,
        target: edge.to,
        label: edge.label,
        type: 'smoothstep',
        focusable: false,
        selectable: false,
        markerEnd: { type: MarkerType.ArrowClosed, color: '#a1a1aa' },
        style: { stroke: '#a1a1aa', strokeWidth: 1.5 },
        labelStyle: { fontSize: 11, fill: '#52525b' },
        labelBgStyle: { fill: '#fafafa' },
      })),
    [graph],
  );

  const shownKey = hoverKey && graph.items.has(hoverKey) ? hoverKey : currentFocus;
  const shown = graph.items.get(shownKey);

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p id="tree-help" className="text-xs text-zinc-500">
          Drag to pan, wheel to zoom. Keys: ←/→ parent and child, ↓/↑ attempts and sibling branches, Enter opens, +/−/0 zoom and fit.
        </p>
        <div role="toolbar" aria-label="Zoom" className="flex items-center gap-1">
          <button type="button" className={BUTTON} aria-label="Zoom out" onClick={() => void flow.zoomOut()}>
            −
          </button>
          <button type="button" className={BUTTON} aria-label="Zoom in" onClick={() => void flow.zoomIn()}>
            +
          </button>
          <button type="button" className={BUTTON} onClick={fit}>
            Fit
          </button>
        </div>
      </div>
      <div className="grid gap-3 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div
          ref={box}
          className="overflow-hidden rounded-lg border border-zinc-200 bg-zinc-50 data-[ready=false]:invisible"
          style={{ height: canvasHeight(size.height) }}
          aria-describedby="tree-help"
          data-testid="lineage-tree"
          data-ready={firstView !== null}
          onKeyDown={onKeyDown}
        >
          <div role="tree" aria-label="Generations and attempts" className="h-full">
            {firstView && (
              <ReactFlow
                nodes={nodes}
                edges={edges}
                nodeTypes={NODE_TYPES}
                defaultViewport={firstView}
                minZoom={MIN_ZOOM}
                maxZoom={MAX_ZOOM}
                nodesDraggable={false}
                nodesConnectable={false}
                nodesFocusable={false}
                edgesFocusable={false}
                elementsSelectable={false}
                disableKeyboardA11y
                zoomOnDoubleClick={false}
              />
            )}
          </div>
        </div>
        {shown && <NodeDetails tree={tree} node={shown} href={hrefs.get(shown.key) ?? '#'} />}
      </div>
      <TreeLegend />
    </div>
  );
}
