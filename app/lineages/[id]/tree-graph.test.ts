import { describe, expect, it } from 'vitest';
import type { LineageTree, TreeAttempt, TreeGeneration } from '@/lib/dashboard/lineages-types.ts';
import {
  attemptKey,
  collapsibleRuns,
  fitsReadably,
  generationKey,
  NODE_HEIGHT,
  nodesBounds,
  openingFit,
  READABLE_ZOOM,
  runKey,
  SEED_KEY,
  treeGraph,
  type FitFrame,
  type GraphNode,
} from './tree-graph.ts';

function attempt(id: string, number: number, state: string, candidateVersionId: string | null): TreeAttempt {
  return { id, number, state, error: null, candidateVersionId, durationMs: 0, verdicts: [] };
}

function generation(number: number, parentVersionId: string, options: Partial<TreeGeneration> = {}): TreeGeneration {
  const id = options.id ?? `gen${number}`;
  const versionId = options.versionId === undefined ? `v${number}` : options.versionId;
  return {
    id,
    number,
    state: 'awaiting-review',
    revision: 0,
    axis: 'length',
    effort: 'low',
    parentVersionId,
    versionId,
    error: null,
    difficulty: null,
    planRounds: 1,
    verdicts: [],
    probe: null,
    release: null,
    wait: null,
    attempts: [
      attempt(`${id}-a1`, 1, 'invalid', 'bad'),
      attempt(`${id}-a2`, 2, 'error', 'bad'),
      attempt(`${id}-a3`, 3, versionId ? 'valid' : 'invalid', versionId ?? 'bad'),
    ],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...options,
  };
}

// A chain of `count` generations from the seed v0, plus what `extra` adds.
function chain(count: number, extra: TreeGeneration[] = []): LineageTree {
  const generations = Array.from({ length: count }, (_, i) => generation(i + 1, `v${i}`));
  return {
    id: 'lin',
    name: 'lineage',
    status: 'idle',
    synthesiser: 'procedural',
    axisPolicy: 'round-robin',
    effort: 'low',
    priors: { version: 'ref-test', fitted: false, description: 'the shipped reference table', choices: [] },
    frontier: null,
    approvalsRequired: 1,
    exhaustedAxes: {},
    sandboxRuntime: { runtime: 'runc', source: 'deployment' },
    gate: { policy: 'trainer', releaseRate: 0.75, minGroup: 8, timeoutReward: 0, demoMode: false },
    policy: 'trainer',
    policies: ['trainer'],
    policyVersion: null,
    frontierWait: null,
    seed: { versionId: 'v0', name: 'seed', difficulty: null, probe: null },
    generations: [...generations, ...extra].sort((a, b) => a.number - b.number),
  };
}

const nodeOf = (nodes: GraphNode[], key: string) => {
  const node = nodes.find((n) => n.key === key);
  if (!node) throw new Error(`no node ${key}`);
  return node;
};

function overlaps(a: GraphNode, b: GraphNode): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

const centreY = (n: GraphNode) => n.y + n.height / 2;

function expectNoOverlaps(nodes: GraphNode[]) {
  for (const [i, a] of nodes.entries()) {
    for (const b of nodes.slice(i + 1)) expect(overlaps(a, b), `${a.key} overlaps ${b.key}`).toBe(false);
  }
}

describe('treeGraph', () => {
  it('lays a chain of 15 generations on one row, one rank each, with their failed attempts inside', () => {
    const graph = treeGraph(chain(15));
    const generations = graph.nodes.filter((n) => n.kind === 'generation');
    expect(generations).toHaveLength(15);
    expect(new Set(generations.map(centreY)).size).toBe(1);
    expect(generations.map((n) => n.layer)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    const xs = generations.map((n) => n.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(new Set(xs).size).toBe(15);

    // Two of three attempts failed; the valid one is the generation itself.
    const g3 = nodeOf(graph.nodes, generationKey('gen3'));
    expect(g3.attemptKeys).toEqual([attemptKey('gen3-a1'), attemptKey('gen3-a2')]);
    expect(g3.height).toBeGreaterThan(NODE_HEIGHT);
    expect(graph.items.get(attemptKey('gen3-a1'))).toMatchObject({ kind: 'attempt', parentKey: g3.key, attemptIndex: 0 });
    expect(graph.items.has(attemptKey('gen3-a3'))).toBe(false);
    expect([...graph.items.values()].filter((i) => i.kind === 'attempt')).toHaveLength(30);
    expectNoOverlaps(graph.nodes);
  });

  it('labels each edge with axis and effort, from the parent version to the generation', () => {
    const graph = treeGraph(chain(3));
    expect(graph.edges.map((e) => [e.from, e.to])).toEqual([
      [SEED_KEY, generationKey('gen1')],
      [generationKey('gen1'), generationKey('gen2')],
      [generationKey('gen2'), generationKey('gen3')],
    ]);
    expect(graph.edges[0]?.label).toBe('length · low');
  });

  it('puts a failed sibling in the same rank as the settled generation, below it, each branch straight', () => {
    const failed = generation(3, 'v2', { id: 'failed3', state: 'failed', versionId: null });
    const graph = treeGraph(chain(5, [failed]));
    const sibling = nodeOf(graph.nodes, generationKey('failed3'));
    const settled = nodeOf(graph.nodes, generationKey('gen3'));
    expect(sibling.layer).toBe(settled.layer);
    expect(sibling.x).toBe(settled.x);
    expect(sibling.parentKey).toBe(generationKey('gen2'));
    expect(sibling.y).toBeGreaterThanOrEqual(settled.y + settled.height);
    // Each branch runs straight: the chain up to the fork, and the settled branch after it.
    const row = (...keys: string[]) => new Set(keys.map((key) => centreY(nodeOf(graph.nodes, key)))).size;
    expect(row(SEED_KEY, generationKey('gen1'), generationKey('gen2'))).toBe(1);
    expect(row(generationKey('gen3'), generationKey('gen4'), generationKey('gen5'))).toBe(1);
    // All three of the failed generation's attempts hang off it.
    expect(sibling.attemptKeys).toHaveLength(3);
    expectNoOverlaps(graph.nodes);
  });

  it('navigates by arrow keys along parent, child, attempts and the node below or above in the rank', () => {
    const failed = generation(2, 'v1', { id: 'failed2', state: 'failed', versionId: null });
    const graph = treeGraph(chain(3, [failed]));
    const { nav, initialKey } = graph;
    const g = generationKey;
    const a = attemptKey;
    expect(initialKey).toBe(g('gen3'));
    expect(nav[SEED_KEY]).toEqual({ right: g('gen1') });
    expect(nav[g('gen1')]).toMatchObject({ left: SEED_KEY, right: g('gen2'), down: a('gen1-a1') });
    expect(nav[g('gen2')]).toMatchObject({ left: g('gen1'), right: g('gen3'), down: a('gen2-a1') });
    expect(nav[a('gen2-a1')]).toEqual({ left: g('gen2'), right: a('gen2-a2'), up: g('gen2'), down: g('failed2') });
    expect(nav[g('failed2')]).toMatchObject({ left: g('gen1'), up: a('gen2-a2'), down: a('failed2-a1') });
    expect(nav[g('failed2')]?.right).toBeUndefined();
    // Every target is a keyboard stop.
    for (const targets of Object.values(nav)) for (const key of Object.values(targets)) expect(graph.items.has(key)).toBe(true);
  });

  it('draws a lineage with no generations as the seed alone', () => {
    const graph = treeGraph(chain(0));
    expect(graph.nodes.map((n) => n.key)).toEqual([SEED_KEY]);
    expect(graph.edges).toEqual([]);
    expect(graph.initialKey).toBe(SEED_KEY);
  });

  it("hangs what was built on a revised generation's replaced version under it, and says so on the edge", () => {
    // Generation 2 was revised: its first candidate v2-old was replaced by v2; the old generation 3
    // was built on v2-old and superseded, the new one on v2.
    const revised = generation(2, 'v1', {
      attempts: [attempt('gen2-a1', 1, 'valid', 'v2-old'), attempt('gen2-a2', 2, 'valid', 'v2')],
    });
    const stale = generation(3, 'v2-old', { id: 'stale3', state: 'superseded', versionId: 'v3-old' });
    const tree = chain(3);
    tree.generations = [tree.generations[0]!, revised, stale, tree.generations[2]!];
    const graph = treeGraph(tree);
    expect(nodeOf(graph.nodes, generationKey('stale3')).parentKey).toBe(generationKey('gen2'));
    expect(graph.edges.find((e) => e.to === generationKey('stale3'))?.label).toBe('length · low · on a replaced version');
    expect(graph.edges.find((e) => e.to === generationKey('gen3'))?.label).toBe('length · low');
  });

  it('falls back to the seed for a generation whose parent version is unknown', () => {
    const stray = generation(4, 'unknown-version', { id: 'stray' });
    expect(nodeOf(treeGraph(chain(2, [stray])).nodes, generationKey('stray')).parentKey).toBe(SEED_KEY);
  });
});

// A canvas of a laptop screen beside the details panel, 24 px kept free at every edge.
const frame = (width: number, height: number): FitFrame => ({ width, height, padding: { top: 24, right: 24, bottom: 24, left: 24 } });
const SCREEN = frame(1000, 500);

// States by generation number, the rest awaiting review.
function withStates(tree: LineageTree, states: (n: number) => string | undefined, frontier: number | null): LineageTree {
  return { ...tree, frontier, generations: tree.generations.map((g) => ({ ...g, state: states(g.number) ?? g.state })) };
}

// 60 generations: released up to the frontier at 40, approved to 44, then awaiting review, a
// rejected one at 58 and 60 being validated; failed siblings at 20, 45 and 58, and a superseded
// branch of two built on 50.
function longLineage(): LineageTree {
  const failed = [20, 45, 58].map((n) => generation(n, `v${n - 1}`, { id: `failed${n}`, state: 'failed', versionId: null }));
  const branch = [
    generation(51, 'v50', { id: 'branch51', state: 'superseded', versionId: 'b51' }),
    generation(52, 'b51', { id: 'branch52', state: 'superseded', versionId: 'b52' }),
  ];
  const states = (n: number) => (n <= 40 ? 'released' : n <= 44 ? 'approved' : n === 57 ? 'rejected' : n === 60 ? 'validating' : undefined);
  const tree = withStates(chain(60), states, 40);
  return { ...tree, generations: [...tree.generations, ...failed, ...branch].sort((a, b) => a.number - b.number) };
}

describe('openingFit', () => {
  const g = generationKey;
  const numberOf = (tree: LineageTree, key: string) => tree.generations.find((x) => g(x.id) === key)?.number;

  it('opens a lineage that fits at a readable zoom on all of it', () => {
    const tree = chain(3);
    const graph = treeGraph(tree);
    expect(openingFit(tree, graph, SCREEN)).toEqual(graph.nodes.map((n) => n.key));
  });

  it('opens 60 generations with branches on the newest work and the generation evolved from, readable', () => {
    const tree = longLineage();
    const graph = treeGraph(tree);
    expect(fitsReadably(nodesBounds(graph.nodes), SCREEN)).toBe(false);
    const keys = openingFit(tree, graph, SCREEN);
    // Focus starts on 60 (being validated); 59 is the newest standing generation, what 61 evolves from.
    expect(keys.slice(0, 2)).toEqual([g('gen60'), g('gen59')]);
    expect(graph.initialKey).toBe(g('gen60'));
    const taken = graph.nodes.filter((n) => keys.includes(n.key));
    expect(fitsReadably(nodesBounds(taken), SCREEN)).toBe(true);
    // The newest run of the main line, as long as stays readable: one more older one would not fit.
    const main = keys.filter((k) => k.startsWith('g:gen')).map((k) => numberOf(tree, k)!);
    const oldest = Math.min(...main);
    expect(main.sort((a, b) => a - b)).toEqual(Array.from({ length: 61 - oldest }, (_, i) => oldest + i));
    const older = graph.nodes.find((n) => n.key === g(`gen${oldest - 1}`))!;
    expect(fitsReadably(nodesBounds([...taken, older]), SCREEN)).toBe(false);
    expect(oldest).toBeGreaterThan(52);
    // The failed sibling at 58 sits in that part, below it; the seed and the frontier at 40 are far off.
    expect(keys).toContain(g('failed58'));
    expect(keys).not.toContain(SEED_KEY);
    expect(keys).not.toContain(g('gen40'));
  });

  it('takes the released frontier when it fits beside the newest work, and leaves it out when it does not', () => {
    // 20 generations: released up to the frontier, approved after it, 20 being validated. A wide
    // canvas holds 14 ranks readably: the frontier at 8 fits with 20, the one at 3 does not.
    const states = (frontier: number) => (n: number) => (n <= frontier ? 'released' : n === 20 ? 'validating' : 'approved');
    const wide = frame(3000, 500);
    const near = withStates(chain(20), states(8), 8);
    const nearKeys = openingFit(near, treeGraph(near), wide);
    expect(nearKeys).toContain(g('gen8'));
    expect(nearKeys).not.toContain(g('gen7'));
    const far = withStates(chain(20), states(3), 3);
    const farKeys = openingFit(far, treeGraph(far), wide);
    expect(farKeys).not.toContain(g('gen3'));
    // Without the frontier, the newest generations: 20 back to 13, and 19 as the one evolved from.
    expect(farKeys.map((k) => numberOf(far, k)).sort((a, b) => a! - b!)).toEqual([13, 14, 15, 16, 17, 18, 19, 20]);
  });

  it('takes the seed as the released frontier before any release', () => {
    const tree = withStates(chain(4), () => 'awaiting-review', 0);
    expect(openingFit(tree, treeGraph(tree), frame(3000, 500))).toContain(SEED_KEY);
  });

  it('keeps the node focus starts on when not even it fits readably', () => {
    const tree = longLineage();
    const graph = treeGraph(tree);
    expect(openingFit(tree, graph, frame(100, 60))).toEqual([graph.initialKey]);
  });

  it('reads "readable" as the box at READABLE_ZOOM inside the canvas less its padding', () => {
    const box = { x: 0, y: 0, width: 1000, height: 100 };
    const exact = { width: 1000 * READABLE_ZOOM + 48, height: 100 * READABLE_ZOOM + 48, padding: { top: 24, right: 24, bottom: 24, left: 24 } };
    expect(fitsReadably(box, exact)).toBe(true);
    expect(fitsReadably(box, { ...exact, width: exact.width - 1 })).toBe(false);
    expect(fitsReadably(box, { ...exact, padding: { ...exact.padding, bottom: 25 } })).toBe(false);
  });
});

describe('collapsed runs', () => {
  const g = generationKey;
  const all = (tree: LineageTree) => new Set(collapsibleRuns(tree).map((run) => run.key));

  it('folds the main line between what stays drawn: the seed, the released frontier and the working end', () => {
    // 15 generations: released to 3 (the frontier), 15 being validated, a failed sibling at 6.
    const states = (n: number) => (n <= 3 ? 'released' : n === 15 ? 'validating' : undefined);
    const tree = withStates(chain(15, [generation(6, 'v5', { id: 'failed6', state: 'failed', versionId: null })]), states, 3);
    const runs = collapsibleRuns(tree);
    expect(runs.map((r) => [r.first, r.last, r.count])).toEqual([
      [1, 2, 2],
      [4, 14, 11],
    ]);
    expect(runs[1]!.key).toBe(runKey('gen4'));
    // The failed sibling at 6 is folded into the run it hangs off.
    expect(runs[1]!.generationIndices.map((i) => tree.generations[i]!.id)).toContain('failed6');

    const graph = treeGraph(tree, all(tree));
    expect(graph.nodes.map((n) => n.key)).toEqual([SEED_KEY, runKey('gen1'), g('gen3'), runKey('gen4'), g('gen15')]);
    expect(graph.nodes.filter((n) => n.kind === 'run').map((n) => n.run?.count)).toEqual([2, 11]);
    // The seed, the frontier and the newest work, readable side by side on a laptop's canvas.
    expect(fitsReadably(nodesBounds(graph.nodes), SCREEN)).toBe(true);
    expect(fitsReadably(nodesBounds(treeGraph(tree).nodes), SCREEN)).toBe(false);
    expectNoOverlaps(graph.nodes);
    // One row, left to right; ← and → walk through a run like any node.
    const xs = graph.nodes.map((n) => n.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(graph.nav[g('gen15')]?.left).toBe(runKey('gen4'));
    expect(graph.nav[runKey('gen4')]).toMatchObject({ left: g('gen3'), right: g('gen15') });
    expect(graph.edges.find((e) => e.to === g('gen3'))?.from).toBe(runKey('gen1'));
  });

  it('stays readable at 100 generations: the seed, the frontier at 88 and the newest work fit', () => {
    const failed = [1, 16, 31, 46, 61, 76, 91].map((n) => generation(n, `v${n - 1}`, { id: `failed${n}`, state: 'failed', versionId: null }));
    const states = (n: number) => (n <= 88 ? 'released' : n <= 91 ? 'approved' : n === 94 ? 'rejected' : n === 100 ? 'validating' : undefined);
    const tree = withStates(chain(100, failed), states, 88);
    const graph = treeGraph(tree, all(tree));
    // The failed first generation beside generation 1 folds into the run with it.
    expect(graph.nodes.map((n) => n.key)).toEqual([SEED_KEY, runKey('gen1'), g('gen88'), runKey('gen89'), g('gen100')]);
    const [first] = collapsibleRuns(tree);
    expect(first!.generationIndices.map((i) => tree.generations[i]!.id)).toContain('failed1');
    // Expanding starts on the main line's generation 1, not on the failed one beside it.
    expect(tree.generations[first!.firstIndex]!.id).toBe('gen1');
    expect(fitsReadably(nodesBounds(graph.nodes), SCREEN)).toBe(true);
    expect(openingFit(tree, graph, SCREEN)).toEqual(expect.arrayContaining([SEED_KEY, g('gen88'), g('gen100')]));
  });

  it('draws an expanded run as its generations again, and leaves a short or branching line alone', () => {
    const tree = withStates(chain(6), (n) => (n === 6 ? 'validating' : undefined), 0);
    const [run] = collapsibleRuns(tree);
    expect(run).toMatchObject({ first: 1, last: 5, count: 5 });
    expect(treeGraph(tree, new Set()).nodes).toEqual(treeGraph(tree).nodes);
    expect(collapsibleRuns(chain(2))).toEqual([]);
    // A branch that went on past its first generation is no failed leaf: 2 stays drawn, with both children.
    const branched = chain(6, [
      generation(3, 'v2', { id: 'b3', state: 'superseded', versionId: 'b3v' }),
      generation(4, 'b3v', { id: 'b4', state: 'superseded' }),
    ]);
    const keys = treeGraph(branched, all(branched)).nodes.map((n) => n.key);
    expect(keys).toContain(g('gen2'));
    expect(keys).toContain(g('b3'));
  });
});
