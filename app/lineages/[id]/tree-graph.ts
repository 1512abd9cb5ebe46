// The lineage tree as a graph for the tree view (@xyflow/react), laid out left to right by dagre:
// the seed, then every generation one rank right of the version it evolved from. Attempts a
// generation did not settle on are drawn inside its node, below it, and are keyboard stops of
// their own. Runs of generations along the main line may be drawn as one node that a reader
// expands (collapsibleRuns), so a long lineage stays readable with its seed and frontier in view.
// Pure: the page memoises it per tree. Also which nodes the view opens fitted to.
import dagre from '@dagrejs/dagre';
import type { LineageTree, TreeGeneration } from '@/lib/dashboard/index.ts';
import { GenerationState, inGroup, IN_PROGRESS_STATES, REVIEWABLE_STATES, STANDING_STATES } from '@/lib/states/index.ts';

export const NODE_WIDTH = 176;
export const NODE_HEIGHT = 64;
export const ATTEMPT_WIDTH = 38;
export const ATTEMPT_HEIGHT = 18;
export const ATTEMPT_GAP = 8;
const ATTEMPT_TOP = 10; // between a generation's card and its first row of attempts
export const ATTEMPTS_PER_ROW = Math.floor((NODE_WIDTH + ATTEMPT_GAP) / (ATTEMPT_WIDTH + ATTEMPT_GAP));
export const RUN_WIDTH = 88;
const RANK_GAP = 120; // room for an edge label
const RUN_GAP = 40; // before a collapsed run, whose incoming edge has no label
const NODE_GAP = 32;
const MARGIN = 24;
// Fewer generations than this in a row are drawn as they are: a run node would save no room.
export const MIN_RUN = 2;

export type TreeItemKind = 'seed' | 'generation' | 'attempt' | 'run';

/** A keyboard stop: the seed, a generation, an attempt drawn inside its generation's node, or a collapsed run. */
export interface TreeItem {
  key: string;
  kind: TreeItemKind;
  layer: number;
  parentKey: string | null;
  generationIndex: number | null; // into tree.generations
  attemptIndex: number | null; // into that generation's attempts
  run: CollapsedRun | null;
}

/** Generations along the main line drawn as one node, with the failed siblings that hang off them. */
export interface CollapsedRun {
  key: string;
  first: number; // generation numbers at its ends
  last: number;
  count: number; // generations on the main line
  firstIndex: number; // into tree.generations: the main line's first generation
  generationIndices: number[]; // into tree.generations, failed siblings included
}

/** A node of the graph: the seed, a generation or a run, with its box as laid out (top left). */
export interface GraphNode extends TreeItem {
  kind: 'seed' | 'generation' | 'run';
  x: number;
  y: number;
  width: number;
  height: number;
  attemptKeys: string[];
}

export interface GraphEdge {
  key: string;
  from: string;
  to: string;
  label: string;
}

export type NavDirection = 'left' | 'right' | 'up' | 'down';
export type NavTargets = Partial<Record<NavDirection, string>>;

export interface TreeGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  items: Map<string, TreeItem>; // every keyboard stop, nodes and attempts
  nav: Record<string, NavTargets>;
  initialKey: string;
}

export const SEED_KEY = 'seed';
export const generationKey = (generationId: string) => `g:${generationId}`;
export const attemptKey = (attemptId: string) => `a:${attemptId}`;
export const runKey = (firstGenerationId: string) => `r:${firstGenerationId}`;

// The attempts drawn on their own: all but the one whose candidate the generation kept.
export function hangingAttempts(generation: TreeGeneration): number[] {
  return generation.attempts.flatMap((attempt, index) => (generation.versionId && attempt.candidateVersionId === generation.versionId ? [] : [index]));
}

export function nodeHeight(attempts: number): number {
  const rows = Math.ceil(attempts / ATTEMPTS_PER_ROW);
  return rows === 0 ? NODE_HEIGHT : NODE_HEIGHT + ATTEMPT_TOP + rows * ATTEMPT_HEIGHT + (rows - 1) * ATTEMPT_GAP;
}

interface Vertex {
  key: string;
  generationIndex: number | null;
  run: CollapsedRun | null;
  children: Vertex[];
  height: number; // longest path to a leaf, in generations
  failed: boolean;
  onReplaced: boolean; // built on a version its parent generation no longer has (a revision replaced it)
}

function buildVertices(tree: LineageTree): Vertex {
  const root: Vertex = { key: SEED_KEY, generationIndex: null, run: null, children: [], height: 0, failed: false, onReplaced: false };
  const byVersion = new Map<string, Vertex>();
  // A revised generation's earlier candidates: what was built on one of them hangs under it.
  const byReplaced = new Map<string, Vertex>();
  // Generations come ordered by number then creation, so a parent is registered before its
  // children; an unknown parent version (should not happen) falls back to the seed.
  tree.generations.forEach((generation, index) => {
    const onReplaced = !byVersion.has(generation.parentVersionId) && byReplaced.has(generation.parentVersionId);
    const vertex: Vertex = {
      key: generationKey(generation.id),
      generationIndex: index,
      run: null,
      children: [],
      height: 0,
      failed: generation.state === GenerationState.failed,
      onReplaced,
    };
    (byVersion.get(generation.parentVersionId) ?? byReplaced.get(generation.parentVersionId) ?? root).children.push(vertex);
    if (generation.versionId && !byVersion.has(generation.versionId)) byVersion.set(generation.versionId, vertex);
    for (const attempt of generation.attempts) {
      if (attempt.candidateVersionId && attempt.candidateVersionId !== generation.versionId) byReplaced.set(attempt.candidateVersionId, vertex);
    }
  });
  const measure = (vertex: Vertex): number => {
    vertex.height = vertex.children.reduce((max, child) => Math.max(max, measure(child) + 1), 0);
    // The branch that went furthest comes first; failed attempts at a step after it.
    vertex.children.sort((a, b) => Number(a.failed) - Number(b.failed) || b.height - a.height);
    return vertex.height;
  };
  measure(root);
  return root;
}

// What stays drawn however long the lineage: the seed, where focus starts, the released frontier,
// generations in their loops and those held for a person.
function keptKeys(tree: LineageTree): Set<string> {
  const key = (g: TreeGeneration) => generationKey(g.id);
  const frontier = tree.frontier ?? 0;
  return new Set([
    SEED_KEY,
    initialFocus(tree),
    ...tree.generations.filter((g) => g.number === frontier && g.state === GenerationState.released).map(key),
    ...tree.generations.filter((g) => inGroup(g.state, IN_PROGRESS_STATES) || g.state === GenerationState.needsAttention).map(key),
  ]);
}

// Each maximal stretch of the main line (every node's first child: the branch that went furthest)
// of at least MIN_RUN generations, none of them kept, whose other children are leaves, short of
// the line's last generation. The leaves beside its generations (failed siblings) fold into it;
// those beside the generation after it stay drawn, hanging from the run.
interface Stretch {
  run: CollapsedRun;
  parent: Vertex;
  chain: Vertex[];
  folded: Vertex[];
}

function runsOf(tree: LineageTree, root: Vertex): Stretch[] {
  const kept = keptKeys(tree);
  const isLeaf = (v: Vertex) => v.children.length === 0 && !kept.has(v.key);
  const stretches: Stretch[] = [];
  let parent = root;
  let chain: Vertex[] = [];
  const close = () => {
    if (chain.length >= MIN_RUN) {
      const generationOf = (v: Vertex) => tree.generations[v.generationIndex!]!;
      const folded = [...parent.children.filter((c) => c !== chain[0] && isLeaf(c)), ...chain.slice(0, -1).flatMap((v) => v.children.slice(1))];
      stretches.push({
        parent,
        chain,
        folded,
        run: {
          key: runKey(generationOf(chain[0]!).id),
          first: generationOf(chain[0]!).number,
          last: generationOf(chain.at(-1)!).number,
          count: chain.length,
          firstIndex: chain[0]!.generationIndex!,
          generationIndices: [...chain, ...folded].map((v) => v.generationIndex!).sort((a, b) => a - b),
        },
      });
    }
    chain = [];
  };
  for (let previous = root, vertex = root.children[0]; vertex; previous = vertex, vertex = vertex.children[0]) {
    if (vertex.children.length > 0 && !kept.has(vertex.key) && vertex.children.slice(1).every(isLeaf)) {
      if (chain.length === 0) parent = previous;
      chain.push(vertex);
    } else close();
  }
  close();
  return stretches;
}

/** The runs of generations the tree can draw collapsed, oldest first. */
export function collapsibleRuns(tree: LineageTree): CollapsedRun[] {
  return runsOf(tree, buildVertices(tree)).map(({ run }) => run);
}

// Replaces each run named in `collapsed` by one vertex that leads on to the run's next generation.
function collapse(tree: LineageTree, root: Vertex, collapsed: ReadonlySet<string>): void {
  for (const { run, parent, chain, folded } of runsOf(tree, root)) {
    if (!collapsed.has(run.key)) continue;
    const first = chain[0]!;
    const last = chain.at(-1)!;
    const vertex: Vertex = { key: run.key, generationIndex: null, run, children: last.children, height: first.height, failed: false, onReplaced: false };
    parent.children = parent.children.filter((c) => !folded.includes(c)).map((c) => (c === first ? vertex : c));
  }
}

export function treeGraph(tree: LineageTree, collapsed: ReadonlySet<string> = new Set()): TreeGraph {
  const root = buildVertices(tree);
  if (collapsed.size > 0) collapse(tree, root, collapsed);
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', ranksep: RANK_GAP, nodesep: NODE_GAP, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));

  const placed: { vertex: Vertex; layer: number; parentKey: string | null }[] = [];
  const visit = (vertex: Vertex, layer: number, parentKey: string | null) => {
    placed.push({ vertex, layer, parentKey });
    const attempts = vertex.generationIndex === null ? 0 : hangingAttempts(tree.generations[vertex.generationIndex]!).length;
    g.setNode(vertex.key, { width: vertex.run ? RUN_WIDTH : NODE_WIDTH, height: nodeHeight(attempts) });
    if (parentKey) g.setEdge(parentKey, vertex.key);
    for (const child of vertex.children) visit(child, layer + 1, vertex.key);
  };
  visit(root, 0, null);
  // Nodes keep the depth-first order they were added in within each rank: the branch that went
  // furthest stays on the top row and failed siblings sit below, as a reader expects.
  dagre.layout(g, { disableOptimalOrderHeuristic: true });

  const left = columnsLeft(placed, (key) => g.node(key).width);
  const items = new Map<string, TreeItem>();
  const nodes = placed.map(({ vertex, layer, parentKey }): GraphNode => {
    const box = g.node(vertex.key);
    const generation = vertex.generationIndex === null ? undefined : tree.generations[vertex.generationIndex];
    const attemptKeys: string[] = [];
    for (const attemptIndex of generation ? hangingAttempts(generation) : []) {
      const key = attemptKey(generation!.attempts[attemptIndex]!.id);
      attemptKeys.push(key);
      items.set(key, { key, kind: 'attempt', layer, parentKey: vertex.key, generationIndex: vertex.generationIndex, attemptIndex, run: null });
    }
    const node: GraphNode = {
      key: vertex.key,
      kind: vertex.run ? 'run' : generation ? 'generation' : 'seed',
      layer,
      parentKey,
      generationIndex: vertex.generationIndex,
      attemptIndex: null,
      run: vertex.run,
      x: left[layer]! + (columnWidth(placed, layer, (key) => g.node(key).width) - box.width) / 2,
      y: box.y - box.height / 2,
      width: box.width,
      height: box.height,
      attemptKeys,
    };
    items.set(node.key, node);
    return node;
  });
  const edges = placed.flatMap(({ vertex, parentKey }): GraphEdge[] => {
    const generation = vertex.generationIndex === null ? undefined : tree.generations[vertex.generationIndex];
    if (parentKey && vertex.run) return [{ key: `${parentKey}->${vertex.key}`, from: parentKey, to: vertex.key, label: '' }];
    const label = `${generation?.axis} · ${generation?.effort}${vertex.onReplaced ? ' · on a replaced version' : ''}`;
    return parentKey && generation ? [{ key: `${parentKey}->${vertex.key}`, from: parentKey, to: vertex.key, label }] : [];
  });
  return { nodes, edges, items, nav: navigation(nodes, placed), initialKey: initialFocus(tree) };
}

type Placed = { vertex: Vertex; layer: number }[];

function columnWidth(placed: Placed, layer: number, widthOf: (key: string) => number): number {
  return Math.max(...placed.filter((p) => p.layer === layer).map((p) => widthOf(p.vertex.key)));
}

// The left edge of each column (layer): dagre spaces every column by the gap an edge label needs,
// but an edge into a column of runs alone carries none, so that gap is narrower.
function columnsLeft(placed: Placed, widthOf: (key: string) => number): number[] {
  const layers = Math.max(...placed.map((p) => p.layer)) + 1;
  const left: number[] = [];
  let x = MARGIN;
  for (let layer = 0; layer < layers; layer += 1) {
    const column = placed.filter((p) => p.layer === layer);
    if (layer > 0) x += column.every((p) => p.vertex.run) ? RUN_GAP : RANK_GAP;
    left.push(x);
    x += columnWidth(placed, layer, widthOf);
  }
  return left;
}

// Arrow keys: ←/→ walk parent and main child (or along an attempt strip); ↓/↑ step into a
// generation's attempts and on to the node below it in the same rank, and back.
function navigation(nodes: GraphNode[], placed: { vertex: Vertex }[]): Record<string, NavTargets> {
  const nav: Record<string, NavTargets> = {};
  const columns = new Map<number, GraphNode[]>();
  for (const node of [...nodes].sort((a, b) => a.y - b.y)) columns.set(node.layer, [...(columns.get(node.layer) ?? []), node]);
  const firstChild = new Map(placed.map(({ vertex }) => [vertex.key, vertex.children[0]?.key]));
  for (const node of nodes) {
    const column = columns.get(node.layer) ?? [];
    const position = column.indexOf(node);
    const above = column[position - 1];
    const below = column[position + 1];
    const attempts = node.attemptKeys;
    nav[node.key] = compact({
      left: node.parentKey ?? undefined,
      right: firstChild.get(node.key),
      down: attempts[0] ?? below?.key,
      up: above?.attemptKeys.at(-1) ?? above?.key,
    });
    attempts.forEach((attempt, i) => {
      nav[attempt] = compact({ left: attempts[i - 1] ?? node.key, right: attempts[i + 1], up: node.key, down: below?.key });
    });
  }
  return nav;
}

function compact(targets: NavTargets): NavTargets {
  return Object.fromEntries(Object.entries(targets).filter(([, value]) => value !== undefined)) as NavTargets;
}

// Where keyboard focus starts: the newest generation still in the running (not failed, not
// superseded), else the newest that did not fail, else the seed.
function initialFocus(tree: LineageTree): string {
  const newer = [...tree.generations].reverse();
  const newest =
    newer.find((g) => g.state !== GenerationState.failed && g.state !== GenerationState.superseded) ?? newer.find((g) => g.state !== GenerationState.failed);
  return newest ? generationKey(newest.id) : SEED_KEY;
}

// The opening view. Below READABLE_ZOOM a node's text is too small to read, so a lineage too long to
// show whole at that zoom opens with its runs collapsed (the view decides) and on: where keyboard
// focus starts, the seed, the released frontier, the generation the next one evolves from, what is
// being evolved or waits on a person and the newest generations, as many of them (in that order) as
// fit at a readable zoom.
export const READABLE_ZOOM = 0.7;
// Below this a card's lines would be too small to read at all: it shows its number alone.
export const COMPACT_BELOW_ZOOM = 0.5;
export const OPENING_NEWEST = 8; // generations, besides the frontier's
// A lineage with more nodes than this gets a minimap: its whole tree rarely fits readably.
export const LONG_LINEAGE_NODES = 12;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The canvas a fit fills, with the room (in pixels) kept free at its edges. */
export interface FitFrame {
  width: number;
  height: number;
  padding: { top: number; right: number; bottom: number; left: number };
}

export function nodesBounds(nodes: Rect[]): Rect {
  const left = Math.min(...nodes.map((n) => n.x));
  const top = Math.min(...nodes.map((n) => n.y));
  const right = Math.max(...nodes.map((n) => n.x + n.width));
  const bottom = Math.max(...nodes.map((n) => n.y + n.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

export function fitsReadably(bounds: Rect, frame: FitFrame): boolean {
  const { top, right, bottom, left } = frame.padding;
  return bounds.width * READABLE_ZOOM + left + right <= frame.width && bounds.height * READABLE_ZOOM + top + bottom <= frame.height;
}

// A person acts on these next: a reviewer, or a lead for a candidate no validator could judge.
const WAITING_ON_A_PERSON = [...REVIEWABLE_STATES, GenerationState.needsAttention];

// The nodes around the frontier and the newest work, most wanted first (keys may repeat).
function frontierFirst(tree: LineageTree, graph: TreeGraph): string[] {
  const newestFirst = [...tree.generations].reverse(); // they come by number, then creation
  const key = (g: TreeGeneration) => generationKey(g.id);
  // As lib/evolution/parent.ts picks it: the newest standing generation with a version, else the seed.
  const evolvesFrom = newestFirst.find((g) => g.versionId !== null && inGroup(g.state, STANDING_STATES));
  const frontier = tree.frontier ?? 0; // generation 0 is the seed, released from the start
  const released = newestFirst.find((g) => g.number === frontier && g.state === GenerationState.released);
  const releasedKey = released ? key(released) : frontier === 0 ? SEED_KEY : null;
  return [
    graph.initialKey,
    SEED_KEY,
    ...(releasedKey ? [releasedKey] : []),
    evolvesFrom ? key(evolvesFrom) : SEED_KEY,
    ...newestFirst.filter((g) => inGroup(g.state, IN_PROGRESS_STATES)).map(key),
    ...newestFirst.filter((g) => inGroup(g.state, WAITING_ON_A_PERSON)).map(key),
    ...newestFirst.slice(0, OPENING_NEWEST).map(key),
  ];
}

/**
 * The keys of the nodes the view opens fitted to: the whole tree when it fits at READABLE_ZOOM,
 * else the frontier's nodes and the newest generations, each taken (most wanted first) only if
 * the box of those taken still fits at that zoom. The first is always taken.
 */
export function openingFit(tree: LineageTree, graph: TreeGraph, frame: FitFrame): string[] {
  if (fitsReadably(nodesBounds(graph.nodes), frame)) return graph.nodes.map((n) => n.key);
  const byKey = new Map(graph.nodes.map((n) => [n.key, n]));
  const taken: GraphNode[] = [];
  for (const key of new Set(frontierFirst(tree, graph))) {
    const node = byKey.get(key);
    if (node && (taken.length === 0 || fitsReadably(nodesBounds([...taken, node]), frame))) taken.push(node);
  }
  return taken.map((n) => n.key);
}
