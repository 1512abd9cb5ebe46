'use client';

import { useQuery } from '@tanstack/react-query';
import {
  getViewportForBounds,
  MarkerType,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useNodesInitialized,
  useReactFlow,
  type Edge,
  type FitViewOptions,
  type Viewport,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { Route } from 'next';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { LineageTree } from '@/lib/dashboard/index.ts';
import { inGroup, IN_PROGRESS_STATES } from '@/lib/states/index.ts';
import { fetchJson } from '../../_components/http.ts';
import { LIVE_LINEAGE_STATUSES } from '../lineage-status-badge.tsx';
import { NodeDetails } from './node-details.tsx';
import { nodeHref } from './node-href.ts';
import { TONES } from './tones.ts';
import {
  collapsibleRuns,
  fitsReadably,
  generationKey,
  LONG_LINEAGE_NODES,
  nodesBounds,
  openingFit,
  READABLE_ZOOM,
  treeGraph,
  type FitFrame,
  type GraphNode,
  type NavDirection,
  type TreeGraph,
} from './tree-graph.ts';
import { TreeLegend } from './tree-legend.tsx';
import { itemTone, TreeNodeCard, type TreeFlowNode } from './tree-node.tsx';

const LIVE_REFETCH_MS = 3_000;
// Zooming out stops here, or lower when Fit all needs it (a lineage of 60+ generations).
const MIN_ZOOM = 0.1;
const MAX_ZOOM = 2.5;
// Room kept free around what a fit shows.
const FIT_PADDING_PX = 24;
// The minimap of a long lineage: as wide as this, as tall as the tree's shape asks within these.
const MINIMAP_WIDTH = 240;
const MINIMAP_HEIGHT = { min: 48, max: 120 };
const PANEL_MARGIN_PX = 15; // xyflow's .react-flow__panel margin
// A revealed node keeps its incoming edge and label in view, where the viewport has room.
const REVEAL_MARGIN_X = 140;
const REVEAL_MARGIN_Y = 40;
const NODE_TYPES = { lineage: TreeNodeCard };

// Tall enough for the tree at 1:1 (a flat chain needs little) and the minimap below it, within what a screen shows.
function canvasHeight(contentHeight: number, minimapBand: number): string {
  return `clamp(360px, ${Math.ceil(contentHeight) + 80 + minimapBand}px, min(70vh, 720px))`;
}

// A fit keeps the minimap's band at the bottom free (it sits bottom left, clear of xyflow's attribution), so nothing it frames hides under the minimap.
function fitFrame(el: HTMLElement, minimapBand: number): FitFrame {
  const edge = FIT_PADDING_PX;
  return { width: el.clientWidth, height: el.clientHeight, padding: { top: edge, right: edge, bottom: edge + minimapBand, left: edge } };
}

function fitPadding(frame: FitFrame): NonNullable<FitViewOptions['padding']> {
  const { top, right, bottom, left } = frame.padding;
  return { top: `${top}px`, right: `${right}px`, bottom: `${bottom}px`, left: `${left}px` };
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

// Fit all: the whole graph as large as fits, up to 1:1; never below READABLE_ZOOM, where a graph
// too long to fit opens at its seed end and the rest is a pan (or the minimap) away.
function viewOfAll(graph: TreeGraph, frame: FitFrame): Viewport {
  const bounds = nodesBounds(graph.nodes);
  const view = getViewportForBounds(bounds, frame.width, frame.height, READABLE_ZOOM, 1, fitPadding(frame));
  return fitsReadably(bounds, frame) ? view : { ...view, x: frame.padding.left - bounds.x * view.zoom };
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
      const live = (data !== undefined && LIVE_LINEAGE_STATUSES.includes(data.status)) || data?.generations.some((g) => inGroup(g.state, IN_PROGRESS_STATES));
      return live ? LIVE_REFETCH_MS : false;
    },
  });
  // Query results are structurally shared: an unchanged tree keeps its identity and its layout.
  const full = useMemo(() => treeGraph(tree), [tree]);
  const runs = useMemo(() => collapsibleRuns(tree), [tree]);
  // Decided once the canvas is measured: a tree that does not fit whole at a readable zoom draws
  // its runs collapsed, each until the reader expands it.
  const [collapseRuns, setCollapseRuns] = useState<boolean | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const collapsed = useMemo(() => new Set(collapseRuns ? runs.map((run) => run.key).filter((key) => !expanded.has(key)) : []), [collapseRuns, runs, expanded]);
  const graph = useMemo(() => (collapsed.size > 0 ? treeGraph(tree, collapsed) : full), [collapsed, full, tree]);
  const size = useMemo(() => extent(graph), [graph]);
  const minimapHeight = Math.round(Math.min(MINIMAP_HEIGHT.max, Math.max(MINIMAP_HEIGHT.min, (MINIMAP_WIDTH * size.height) / size.width)));
  const minimapBand = graph.nodes.length > LONG_LINEAGE_NODES ? minimapHeight + PANEL_MARGIN_PX : 0;
  const hrefs = useMemo(() => new Map([...graph.items.values()].map((item) => [item.key, nodeHref(tree, item)])), [graph, tree]);

  const [focusKey, setFocusKey] = useState(graph.initialKey);
  const [hoverKey, setHoverKey] = useState<string | null>(null);
  const currentFocus = graph.items.has(focusKey) ? focusKey : graph.initialKey;
  const box = useRef<HTMLDivElement>(null);
  const elements = useRef(new Map<string, HTMLElement>());

  // A node to focus once it is drawn: the first generation of a run just expanded.
  const focusOnDraw = useRef<string | null>(null);
  const register = useCallback((key: string, element: HTMLElement | null) => {
    if (!element) {
      elements.current.delete(key);
      return;
    }
    elements.current.set(key, element);
    if (focusOnDraw.current === key) {
      element.focus({ preventScroll: true });
      // xyflow keeps a new node hidden until it has measured it, and a hidden element takes no
      // focus: then the focus waits for the nodes to be initialised (below).
      if (document.activeElement === element) focusOnDraw.current = null;
    }
  }, []);
  const nodesInitialized = useNodesInitialized();
  useEffect(() => {
    const key = focusOnDraw.current;
    const element = key ? elements.current.get(key) : undefined;
    if (!nodesInitialized || !element) return;
    element.focus({ preventScroll: true });
    focusOnDraw.current = null;
  }, [nodesInitialized]);
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

  // The first view: fitted to the whole tree if it stays readable, else to the part around the
  // frontier and the newest work (openingFit). It is the viewport fitView would reach, computed
  // with xyflow's own getViewportForBounds from the canvas's size before React Flow first draws,
  // so the tree appears in place instead of jumping there after its nodes are measured.
  const [firstView, setFirstView] = useState<Viewport | null>(null);
  const [canvas, setCanvas] = useState<FitFrame | null>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (firstView || !el) return;
    const frame = fitFrame(el, minimapBand);
    if (collapseRuns === null) {
      setCollapseRuns(!fitsReadably(nodesBounds(full.nodes), frame));
      return;
    }
    const keys = new Set(openingFit(tree, graph, frame));
    const bounds = nodesBounds(graph.nodes.filter((n) => keys.has(n.key)));
    setFirstView(getViewportForBounds(bounds, frame.width, frame.height, READABLE_ZOOM, 1, fitPadding(frame)));
    setCanvas(frame);
  }, [collapseRuns, firstView, full, graph, minimapBand, tree]);
  // The zoom at which the whole tree fits, as the floor for zooming out when that is below MIN_ZOOM.
  const minZoom = canvas
    ? Math.min(MIN_ZOOM, getViewportForBounds(nodesBounds(graph.nodes), canvas.width, canvas.height, 0, 1, fitPadding(canvas)).zoom)
    : MIN_ZOOM;
  useLayoutEffect(() => {
    // For the render-time measurement in e2e/lineages.spec.ts and bench/browser.ts.
    if (firstView && performance.getEntriesByName('lineage-tree-ready').length === 0) performance.mark('lineage-tree-ready');
  }, [firstView]);

  // Fit all draws every run collapsed again when the graph as it is does not fit readably.
  const fitAll = useCallback(() => {
    if (!box.current) return;
    const frame = fitFrame(box.current, minimapBand);
    if (fitsReadably(nodesBounds(graph.nodes), frame) || runs.length === 0) {
      void flow.setViewport(viewOfAll(graph, frame));
      return;
    }
    setCollapseRuns(true);
    setExpanded(new Set());
    void flow.setViewport(viewOfAll(treeGraph(tree, new Set(runs.map((run) => run.key))), frame));
  }, [flow, graph, minimapBand, runs, tree]);
  const fitFrontier = useCallback(() => {
    if (!box.current) return;
    const frame = fitFrame(box.current, minimapBand);
    const nodes = openingFit(tree, graph, frame).map((id) => ({ id }));
    void flow.fitView({ nodes, minZoom: READABLE_ZOOM, maxZoom: 1, padding: fitPadding(frame) });
  }, [flow, graph, minimapBand, tree]);

  const moveFocus = (key: string) => {
    setFocusKey(key);
    elements.current.get(key)?.focus({ preventScroll: true });
    reveal(key);
  };

  // Expanding a run draws its generations in its place; focus goes to the first of them once drawn.
  const onExpand = useCallback(
    (key: string) => {
      const run = runs.find((r) => r.key === key);
      const first = run ? tree.generations[run.firstIndex] : undefined;
      if (!first) return;
      setExpanded((before) => new Set([...before, key]));
      setFocusKey(generationKey(first.id));
      focusOnDraw.current = generationKey(first.id);
    },
    [runs, tree],
  );

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
      if (graph.items.get(currentFocus)?.run) onExpand(currentFocus);
      else router.push((hrefs.get(currentFocus) ?? '#') as Route);
    } else if (event.key === '+' || event.key === '=') void flow.zoomIn();
    else if (event.key === '-') void flow.zoomOut();
    else if (event.key === '0') fitAll();
    else if (event.key.toLowerCase() === 'f' && !event.ctrlKey && !event.metaKey && !event.altKey) fitFrontier();
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
        data: { node, tree, items: graph.items, hrefs, focusKey: currentFocus, onFocusItem: setFocusKey, onHoverItem: setHoverKey, onOpen, onExpand, register },
      })),
    [graph, tree, hrefs, currentFocus, onOpen, onExpand, register],
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
        markerEnd: { type: MarkerType.ArrowClosed, color: 'var(--color-zinc-400)' },
        style: { stroke: 'var(--color-zinc-400)', strokeWidth: 1.5 },
        labelStyle: { fontSize: 11, fill: 'var(--color-zinc-600)' },
        labelBgStyle: { fill: 'var(--color-zinc-50)' },
      })),
    [graph],
  );

  const shownKey = hoverKey && graph.items.has(hoverKey) ? hoverKey : currentFocus;
  const shown = graph.items.get(shownKey);

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p id="tree-help" className="text-xs text-zinc-500">
          Drag to pan, wheel to zoom. Keys: ←/→ parent and child, ↓/↑ attempts and sibling branches, Enter opens, +/− zoom, 0 fits all, F fits the frontier.
        </p>
        <div role="toolbar" aria-label="Zoom" className="flex items-center gap-1">
          <button type="button" className={BUTTON} aria-label="Zoom out" onClick={() => void flow.zoomOut()}>
            −
          </button>
          <button type="button" className={BUTTON} aria-label="Zoom in" onClick={() => void flow.zoomIn()}>
            +
          </button>
          <button type="button" className={BUTTON} onClick={fitAll}>
            Fit all
          </button>
          <button
            type="button"
            className={BUTTON}
            title="The newest work, the generation the next evolves from, what waits on review and the released frontier, as much as stays readable"
            onClick={fitFrontier}
          >
            Fit frontier
          </button>
        </div>
      </div>
      <div className="grid gap-3 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div
          ref={box}
          className="overflow-hidden rounded-lg border border-zinc-200 bg-zinc-50 data-[ready=false]:invisible"
          style={{ height: canvasHeight(size.height, minimapBand) }}
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
                minZoom={minZoom}
                maxZoom={MAX_ZOOM}
                nodesDraggable={false}
                nodesConnectable={false}
                nodesFocusable={false}
                edgesFocusable={false}
                elementsSelectable={false}
                disableKeyboardA11y
                zoomOnDoubleClick={false}
              >
                {minimapBand > 0 && (
                  <MiniMap<TreeFlowNode>
                    position="bottom-left"
                    pannable
                    zoomable
                    ariaLabel="Minimap of the whole tree: drag to pan, wheel to zoom"
                    style={{ width: MINIMAP_WIDTH, height: minimapHeight }}
                    className="overflow-hidden rounded-md border border-zinc-300"
                    bgColor="var(--color-white)"
                    maskColor="color-mix(in oklab, var(--color-zinc-400) 30%, transparent)"
                    maskStrokeColor="var(--color-zinc-600)"
                    maskStrokeWidth={1}
                    nodeColor={(n) => TONES[itemTone(n.data.node, n.data.tree)].stroke}
                    nodeBorderRadius={8}
                  />
                )}
              </ReactFlow>
            )}
          </div>
        </div>
        {shown && <NodeDetails tree={tree} node={shown} href={hrefs.get(shown.key) ?? '#'} />}
      </div>
      <TreeLegend />
    </div>
  );
}
