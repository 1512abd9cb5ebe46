import { describe, expect, it } from 'vitest';
import {
  attemptKey,
  generationKey,
  layoutLineageTree,
  NODE_HEIGHT,
  NODE_WIDTH,
  SEED_KEY,
  type LaidOutNode,
} from './lineages-layout.ts';
import type { LineageTree, TreeAttempt, TreeGeneration } from './lineages-types.ts';

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
    gate: { policy: 'oracle', releaseRate: 0.75, minGroup: 8, timeoutReward: 0, demoMode: false },
    policy: 'oracle',
    policies: ['oracle'],
    seed: { versionId: 'v0', name: 'seed', difficulty: null, probe: null },
    generations: [...generations, ...extra].sort((a, b) => a.number - b.number),
  };
}

const nodeOf = (nodes: LaidOutNode[], key: string) => {
  const node = nodes.find((n) => n.key === key);
  if (!node) throw new Error(`no node ${key}`);
  return node;
};

function overlaps(a: LaidOutNode, b: LaidOutNode): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe('layoutLineageTree', () => {
  it('puts a chain of 15 generations on one row, one layer each, with their failed attempts below', () => {
    const layout = layoutLineageTree(chain(15));
    const generations = layout.nodes.filter((n) => n.kind === 'generation');
    expect(generations).toHaveLength(15);
    expect(new Set(generations.map((n) => n.y)).size).toBe(1);
    expect(generations.map((n) => n.layer)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    const xs = generations.map((n) => n.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));

    // Two of three attempts failed; the valid one is the generation itself.
    const attempts = layout.nodes.filter((n) => n.kind === 'attempt');
    expect(attempts).toHaveLength(30);
    const g3 = nodeOf(layout.nodes, generationKey('gen3'));
    for (const key of [attemptKey('gen3-a1'), attemptKey('gen3-a2')]) {
      const hanging = nodeOf(layout.nodes, key);
      expect(hanging.parentKey).toBe(g3.key);
      expect(hanging.y).toBeGreaterThanOrEqual(g3.y + NODE_HEIGHT);
      expect(hanging.x + hanging.width).toBeLessThanOrEqual(g3.x + NODE_WIDTH);
    }
    expect(layout.nodes.some((n) => n.key === attemptKey('gen3-a3'))).toBe(false);

    for (const [i, a] of layout.nodes.entries()) {
      for (const b of layout.nodes.slice(i + 1)) expect(overlaps(a, b), `${a.key} overlaps ${b.key}`).toBe(false);
    }
    expect(layout.width).toBeGreaterThanOrEqual(Math.max(...layout.nodes.map((n) => n.x + n.width)));
    expect(layout.height).toBeGreaterThanOrEqual(Math.max(...layout.nodes.map((n) => n.y + n.height)));
  });

  it('labels each edge with axis and effort, from the parent version to the generation', () => {
    const layout = layoutLineageTree(chain(3));
    expect(layout.edges.map((e) => [e.from, e.to])).toEqual([
      [SEED_KEY, generationKey('gen1')],
      [generationKey('gen1'), generationKey('gen2')],
      [generationKey('gen2'), generationKey('gen3')],
    ]);
    expect(layout.edges[0]?.label).toBe('length · low');
    expect(layout.edges[0]?.path).toMatch(/^M[\d.]+,[\d.]+ H[\d.]+$/);
  });

  it('draws a failed sibling as a branch below, in the same layer, and keeps the chain straight', () => {
    const failed = generation(3, 'v2', { id: 'failed3', state: 'failed', versionId: null });
    const layout = layoutLineageTree(chain(5, [failed]));
    const sibling = nodeOf(layout.nodes, generationKey('failed3'));
    const settled = nodeOf(layout.nodes, generationKey('gen3'));
    expect(sibling.layer).toBe(settled.layer);
    expect(sibling.x).toBe(settled.x);
    expect(sibling.y).toBeGreaterThan(settled.y + NODE_HEIGHT);
    expect(sibling.parentKey).toBe(generationKey('gen2'));
    const mainRow = layout.nodes.filter((n) => n.kind === 'generation' && n.key !== sibling.key).map((n) => n.y);
    expect(new Set(mainRow).size).toBe(1);
    // All three of the failed generation's attempts hang off it, clear of the row above.
    expect(layout.nodes.filter((n) => n.parentKey === sibling.key && n.kind === 'attempt')).toHaveLength(3);
    const edge = layout.edges.find((e) => e.to === sibling.key);
    expect(edge?.path).toContain('C');
    for (const [i, a] of layout.nodes.entries()) {
      for (const b of layout.nodes.slice(i + 1)) expect(overlaps(a, b), `${a.key} overlaps ${b.key}`).toBe(false);
    }
  });

  it('navigates by arrow keys along parent, child, attempts and sibling branches', () => {
    const failed = generation(2, 'v1', { id: 'failed2', state: 'failed', versionId: null });
    const { nav, initialKey } = layoutLineageTree(chain(3, [failed]));
    const g = generationKey;
    const a = attemptKey;
    expect(initialKey).toBe(g('gen3'));
    expect(nav[SEED_KEY]).toEqual({ right: g('gen1') });
    expect(nav[g('gen1')]).toMatchObject({ left: SEED_KEY, right: g('gen2'), down: a('gen1-a1') });
    expect(nav[g('gen2')]).toMatchObject({ left: g('gen1'), right: g('gen3'), down: a('gen2-a1') });
    expect(nav[a('gen2-a1')]).toEqual({ left: g('gen2'), right: a('gen2-a2'), up: g('gen2'), down: g('failed2') });
    expect(nav[a('gen2-a2')]).toMatchObject({ left: a('gen2-a1'), up: g('gen2'), down: g('failed2') });
    expect(nav[g('failed2')]).toMatchObject({ left: g('gen1'), up: a('gen2-a2'), down: a('failed2-a1') });
    expect(nav[g('failed2')]?.right).toBeUndefined();
    // Every target is a node.
    const keys = new Set(layoutLineageTree(chain(3, [failed])).nodes.map((n) => n.key));
    for (const targets of Object.values(nav)) for (const key of Object.values(targets)) expect(keys.has(key)).toBe(true);
  });

  it('lays out a lineage with no generations as the seed alone', () => {
    const layout = layoutLineageTree(chain(0));
    expect(layout.nodes.map((n) => n.key)).toEqual([SEED_KEY]);
    expect(layout.edges).toEqual([]);
    expect(layout.initialKey).toBe(SEED_KEY);
  });

  it('falls back to the seed for a generation whose parent version is unknown', () => {
    const stray = generation(4, 'unknown-version', { id: 'stray' });
    const layout = layoutLineageTree(chain(2, [stray]));
    expect(nodeOf(layout.nodes, generationKey('stray')).parentKey).toBe(SEED_KEY);
  });
});
