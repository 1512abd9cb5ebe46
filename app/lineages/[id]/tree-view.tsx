'use client';

import { useQuery } from '@tanstack/react-query';
import type { Route } from 'next';
import { useRouter } from 'next/navigation';
import { useCallback, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { layoutLineageTree, type NavDirection } from '@/lib/dashboard/lineages-layout.ts';
import type { LineageTree } from '@/lib/dashboard/lineages-types.ts';
import { inGroup, IN_PROGRESS_STATES } from '@/lib/evolution/states.ts';
import { fetchJson } from '../../_components/fetch-json.ts';
import { NodeDetails } from './node-details.tsx';
import { nodeHref } from './node-href.ts';
import { TreeCanvas, type CanvasHandle } from './tree-canvas.tsx';
import { TreeLegend } from './tree-legend.tsx';
import { TreeNode, type FocusableNode } from './tree-node.tsx';

const LIVE_REFETCH_MS = 3_000;
const ZOOM_STEP = 1.25;

// Tall enough for the tree at 1:1 (a flat chain needs little), within what a screen shows.
function canvasHeight(contentHeight: number): string {
  return `clamp(360px, ${Math.ceil(contentHeight) + 80}px, min(70vh, 720px))`;
}

const ARROWS: Record<string, NavDirection> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };

const BUTTON =
  'grid h-7 min-w-7 place-items-center rounded-md border border-zinc-300 bg-white px-2 text-sm font-medium text-zinc-700 hover:bg-zinc-50';

// The tree, its controls and the details of the node in focus (or under the pointer).
export function LineageTreeView({ initial }: { initial: LineageTree }) {
  const router = useRouter();
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
  const layout = useMemo(() => layoutLineageTree(tree), [tree]);
  const nodesByKey = useMemo(() => new Map(layout.nodes.map((node) => [node.key, node])), [layout]);
  const hrefs = useMemo(() => new Map(layout.nodes.map((node) => [node.key, nodeHref(tree, node)])), [layout, tree]);

  const [focusKey, setFocusKey] = useState(layout.initialKey);
  const [hoverKey, setHoverKey] = useState<string | null>(null);
  const currentFocus = nodesByKey.has(focusKey) ? focusKey : layout.initialKey;
  const canvas = useRef<CanvasHandle>(null);
  const elements = useRef(new Map<string, FocusableNode>());

  const register = useCallback((key: string, element: FocusableNode | null) => {
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

  const moveFocus = (key: string) => {
    setFocusKey(key);
    elements.current.get(key)?.focus({ preventScroll: true });
    canvas.current?.reveal(key);
  };

  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    const direction = ARROWS[event.key];
    if (direction) {
      event.preventDefault();
      const next = layout.nav[currentFocus]?.[direction];
      if (next) moveFocus(next);
      return;
    }
    if (event.key === 'Enter') {
      // Handled here rather than by the link's own activation, which SVG links do not all get.
      event.preventDefault();
      router.push((hrefs.get(currentFocus) ?? '#') as Route);
    } else if (event.key === '+' || event.key === '=') canvas.current?.zoomBy(ZOOM_STEP);
    else if (event.key === '-') canvas.current?.zoomBy(1 / ZOOM_STEP);
    else if (event.key === '0') canvas.current?.fit();
    else if (event.key === 'Home') moveFocus(layout.initialKey);
  };

  const shownKey = hoverKey && nodesByKey.has(hoverKey) ? hoverKey : currentFocus;
  const shown = nodesByKey.get(shownKey);

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p id="tree-help" className="text-xs text-zinc-500">
          Drag to pan, wheel to zoom. Keys: ←/→ parent and child, ↓/↑ attempts and sibling branches, Enter opens, +/−/0 zoom and fit.
        </p>
        <div role="toolbar" aria-label="Zoom" className="flex items-center gap-1">
          <button type="button" className={BUTTON} aria-label="Zoom out" onClick={() => canvas.current?.zoomBy(1 / ZOOM_STEP)}>
            −
          </button>
          <button type="button" className={BUTTON} aria-label="Zoom in" onClick={() => canvas.current?.zoomBy(ZOOM_STEP)}>
            +
          </button>
          <button type="button" className={BUTTON} onClick={() => canvas.current?.fit()}>
            Fit
          </button>
        </div>
      </div>
      <div className="grid gap-3 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div
          className="overflow-hidden rounded-lg border border-zinc-200 bg-zinc-50"
          style={{ height: canvasHeight(layout.height) }}
          aria-describedby="tree-help"
        >
          <TreeCanvas layout={layout} focusKey={currentFocus} handle={canvas} onKeyDown={onKeyDown}>
            {layout.nodes.map((node) => (
              <TreeNode
                key={node.key}
                node={node}
                tree={tree}
                href={hrefs.get(node.key) ?? '#'}
                tabbable={node.key === currentFocus}
                onFocusNode={setFocusKey}
                onHoverNode={setHoverKey}
                onOpen={onOpen}
                register={register}
              />
            ))}
          </TreeCanvas>
        </div>
        {shown && <NodeDetails tree={tree} node={shown} href={hrefs.get(shown.key) ?? '#'} />}
      </div>
      <TreeLegend />
    </div>
  );
}
