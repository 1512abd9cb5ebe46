import { describe, expect, it } from 'vitest';
import type { LineageTree, TreeAttempt, TreeGeneration } from '@/lib/dashboard/lineages-types.ts';
import { attemptKey, generationKey, NODE_HEIGHT, SEED_KEY, treeGraph, type GraphNode } from './tree-graph.ts';

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

  it('falls back to the seed for a generation whose parent version is unknown', () => {
    const stray = generation(4, 'unknown-version', { id: 'stray' });
    expect(nodeOf(treeGraph(chain(2, [stray])).nodes, generationKey('stray')).parentKey).toBe(SEED_KEY);
  });
});
