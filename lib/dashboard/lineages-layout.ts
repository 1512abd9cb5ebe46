// A layered layout of a lineage tree, left to right: the seed in layer 0, every generation one
// layer right of the version it evolved from. The longest branch stays on the top row; failed
// siblings and other branches take the next free row of their layer. Attempts the generation
// did not settle on hang below it as small nodes. Pure: the page memoises it per tree.
import type { LineageTree, TreeGeneration } from './lineages-types.ts';
import { GenerationState } from '../evolution/states.ts';

export const NODE_WIDTH = 176;
export const NODE_HEIGHT = 64;
export const ATTEMPT_WIDTH = 38;
export const ATTEMPT_HEIGHT = 18;
const ATTEMPT_GAP = 8;
const ATTEMPT_TOP = 10; // between a generation and its first row of attempts
const ATTEMPTS_PER_ROW = Math.floor((NODE_WIDTH + ATTEMPT_GAP) / (ATTEMPT_WIDTH + ATTEMPT_GAP));
const COLUMN_GAP = 120; // room for an edge label
const ROW_GAP = 32;
const PADDING = 24;

export type TreeNodeKind = 'seed' | 'generation' | 'attempt';

export interface LaidOutNode {
  key: string;
  kind: TreeNodeKind;
  x: number;
  y: number;
  width: number;
  height: number;
  layer: number;
  parentKey: string | null;
  generationIndex: number | null; // into tree.generations (generations and their attempts)
  attemptIndex: number | null; // into that generation's attempts
}

export interface LaidOutEdge {
  key: string;
  from: string;
  to: string;
  path: string; // SVG path data
  label: string;
  labelX: number;
  labelY: number;
}

export type NavDirection = 'left' | 'right' | 'up' | 'down';
export type NavTargets = Partial<Record<NavDirection, string>>;

export interface TreeLayout {
  width: number;
  height: number;
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
  nav: Record<string, NavTargets>;
  initialKey: string;
}

export const SEED_KEY = 'seed';
export const generationKey = (generationId: string) => `g:${generationId}`;
export const attemptKey = (attemptId: string) => `a:${attemptId}`;

// The attempts drawn as their own nodes: all but the one whose candidate the generation kept.
export function hangingAttempts(generation: TreeGeneration): number[] {
  return generation.attempts.flatMap((attempt, index) =>
    generation.versionId && attempt.candidateVersionId === generation.versionId ? [] : [index],
  );
}

interface TreeVertex {
  key: string;
  generationIndex: number | null;
  children: TreeVertex[];
  height: number; // longest path to a leaf, in generations
  failed: boolean;
}

function buildVertices(tree: LineageTree): TreeVertex {
  const root: TreeVertex = { key: SEED_KEY, generationIndex: null, children: [], height: 0, failed: false };
  const byVersion = new Map<string, TreeVertex>();
  const vertices = tree.generations.map((generation, index) => {
    const vertex: TreeVertex = {
      key: generationKey(generation.id),
      generationIndex: index,
      children: [],
      height: 0,
      failed: generation.state === GenerationState.failed,
    };
    return vertex;
  });
  // Generations come ordered by number then creation, so a parent is always registered before
  // its children; an unknown or later parent version (should not happen) falls back to the seed.
  tree.generations.forEach((generation, index) => {
    const vertex = vertices[index] as TreeVertex;
    (byVersion.get(generation.parentVersionId) ?? root).children.push(vertex);
    if (generation.versionId && !byVersion.has(generation.versionId)) byVersion.set(generation.versionId, vertex);
  });
  const measure = (vertex: TreeVertex): number => {
    vertex.height = vertex.children.reduce((max, child) => Math.max(max, measure(child) + 1), 0);
    // The branch that went furthest keeps the straight line; failed attempts at a step branch off below it.
    vertex.children.sort((a, b) => Number(a.failed) - Number(b.failed) || b.height - a.height);
    return vertex.height;
  };
  measure(root);
  return root;
}

function attemptRows(count: number): number {
  return Math.ceil(count / ATTEMPTS_PER_ROW);
}

function slotHeight(tree: LineageTree, generationIndex: number | null): number {
  if (generationIndex === null) return NODE_HEIGHT;
  const rows = attemptRows(hangingAttempts(tree.generations[generationIndex] as TreeGeneration).length);
  return rows === 0 ? NODE_HEIGHT : NODE_HEIGHT + ATTEMPT_TOP + rows * ATTEMPT_HEIGHT + (rows - 1) * ATTEMPT_GAP;
}

export function layoutLineageTree(tree: LineageTree): TreeLayout {
  const root = buildVertices(tree);

  // Rows: depth first, each vertex on its parent's row unless that row of its layer is taken.
  const placed: { vertex: TreeVertex; layer: number; row: number; parentKey: string | null }[] = [];
  const nextFreeRow: number[] = [];
  const place = (vertex: TreeVertex, layer: number, desiredRow: number, parentKey: string | null) => {
    const row = Math.max(desiredRow, nextFreeRow[layer] ?? 0);
    nextFreeRow[layer] = row + 1;
    placed.push({ vertex, layer, row, parentKey });
    for (const child of vertex.children) place(child, layer + 1, row, vertex.key);
  };
  place(root, 0, 0, null);

  const rowCount = Math.max(...placed.map((p) => p.row)) + 1;
  const rowHeights = Array.from({ length: rowCount }, () => NODE_HEIGHT);
  for (const p of placed) rowHeights[p.row] = Math.max(rowHeights[p.row] ?? 0, slotHeight(tree, p.vertex.generationIndex));
  const rowTops: number[] = [];
  let top = PADDING;
  for (const height of rowHeights) {
    rowTops.push(top);
    top += height + ROW_GAP;
  }

  const nodes: LaidOutNode[] = [];
  const byKey = new Map<string, LaidOutNode>();
  const attemptKeysOf = new Map<string, string[]>();
  for (const p of placed) {
    const node: LaidOutNode = {
      key: p.vertex.key,
      kind: p.vertex.generationIndex === null ? 'seed' : 'generation',
      x: PADDING + p.layer * (NODE_WIDTH + COLUMN_GAP),
      y: rowTops[p.row] ?? PADDING,
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
      layer: p.layer,
      parentKey: p.parentKey,
      generationIndex: p.vertex.generationIndex,
      attemptIndex: null,
    };
    nodes.push(node);
    byKey.set(node.key, node);
    if (p.vertex.generationIndex === null) continue;
    const generation = tree.generations[p.vertex.generationIndex] as TreeGeneration;
    const keys: string[] = [];
    hangingAttempts(generation).forEach((attemptIndex, i) => {
      const attempt = generation.attempts[attemptIndex];
      if (!attempt) return;
      const hanging: LaidOutNode = {
        key: attemptKey(attempt.id),
        kind: 'attempt',
        x: node.x + (i % ATTEMPTS_PER_ROW) * (ATTEMPT_WIDTH + ATTEMPT_GAP),
        y: node.y + NODE_HEIGHT + ATTEMPT_TOP + Math.floor(i / ATTEMPTS_PER_ROW) * (ATTEMPT_HEIGHT + ATTEMPT_GAP),
        width: ATTEMPT_WIDTH,
        height: ATTEMPT_HEIGHT,
        layer: p.layer,
        parentKey: node.key,
        generationIndex: p.vertex.generationIndex,
        attemptIndex,
      };
      nodes.push(hanging);
      byKey.set(hanging.key, hanging);
      keys.push(hanging.key);
    });
    attemptKeysOf.set(node.key, keys);
  }

  const edges = placed.flatMap((p): LaidOutEdge[] => {
    const from = p.parentKey ? byKey.get(p.parentKey) : undefined;
    const to = byKey.get(p.vertex.key);
    if (!from || !to || p.vertex.generationIndex === null) return [];
    const generation = tree.generations[p.vertex.generationIndex] as TreeGeneration;
    return [edgeBetween(from, to, `${generation.axis} · ${generation.effort}`)];
  });

  const width = Math.max(...nodes.map((n) => n.x + n.width)) + PADDING;
  const height = Math.max(...nodes.map((n) => n.y + n.height)) + PADDING;
  return {
    width,
    height,
    nodes,
    edges,
    nav: navigation(placed, byKey, attemptKeysOf),
    initialKey: initialFocus(tree),
  };
}

// Out of the parent's right side into the child's left; a branch to a lower row bends down.
// The label sits above a straight edge, and below the end of a bent one, where nothing crosses.
function edgeBetween(from: LaidOutNode, to: LaidOutNode, label: string): LaidOutEdge {
  const x1 = from.x + from.width;
  const y1 = from.y + NODE_HEIGHT / 2;
  const x2 = to.x;
  const y2 = to.y + NODE_HEIGHT / 2;
  const midX = (x1 + x2) / 2;
  const path = y1 === y2 ? `M${x1},${y1} H${x2}` : `M${x1},${y1} C${midX},${y1} ${midX},${y2} ${x2},${y2}`;
  return { key: `${from.key}->${to.key}`, from: from.key, to: to.key, path, label, labelX: midX, labelY: y1 === y2 ? y2 - 8 : y2 + 16 };
}

// Arrow keys: ←/→ walk parent and main child (or along an attempt strip); ↓/↑ step into a
// generation's attempts and on to the branch below it in the same layer, and back.
function navigation(
  placed: { vertex: TreeVertex; layer: number; row: number }[],
  byKey: Map<string, LaidOutNode>,
  attemptKeysOf: Map<string, string[]>,
): Record<string, NavTargets> {
  const nav: Record<string, NavTargets> = {};
  const columns = new Map<number, string[]>();
  for (const p of [...placed].sort((a, b) => a.row - b.row)) {
    columns.set(p.layer, [...(columns.get(p.layer) ?? []), p.vertex.key]);
  }
  for (const p of placed) {
    const key = p.vertex.key;
    const column = columns.get(p.layer) ?? [];
    const position = column.indexOf(key);
    const above = column[position - 1];
    const below = column[position + 1];
    const attempts = attemptKeysOf.get(key) ?? [];
    const aboveAttempts = above ? (attemptKeysOf.get(above) ?? []) : [];
    nav[key] = compact({
      left: byKey.get(key)?.parentKey ?? undefined,
      right: p.vertex.children[0]?.key,
      down: attempts[0] ?? below,
      up: aboveAttempts.at(-1) ?? above,
    });
    attempts.forEach((attempt, i) => {
      nav[attempt] = compact({ left: attempts[i - 1] ?? key, right: attempts[i + 1], up: key, down: below });
    });
  }
  return nav;
}

function compact(targets: NavTargets): NavTargets {
  return Object.fromEntries(Object.entries(targets).filter(([, value]) => value !== undefined)) as NavTargets;
}

// Where keyboard focus starts: the newest generation that did not fail, else the seed.
function initialFocus(tree: LineageTree): string {
  const newest = [...tree.generations].reverse().find((g) => g.state !== GenerationState.failed);
  return newest ? generationKey(newest.id) : SEED_KEY;
}
