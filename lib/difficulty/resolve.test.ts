import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import type { Sequence } from '../sequence/types.ts';
import { difficulty } from './difficulty.ts';
import { MIN_ESTIMATE, type PriorEstimator } from './estimator.ts';
import { resolvePriors } from './resolve.ts';
import { REFERENCE_VERSION, SCENARIO_EPSILON, SKILL_EPSILON } from './reference-priors.ts';
import { storeDifficulty } from './store.ts';

// Answers from a fixed list and counts the questions it was asked.
function countingEstimator(answers: Record<string, number>, model = 'fake-llm-1'): PriorEstimator & { calls: string[] } {
  const calls: string[] = [];
  return {
    model,
    calls,
    async estimate(kind, name, given) {
      const key = `${kind}:${name}${given === undefined ? '' : `|${given}`}`;
      calls.push(key);
      return answers[key] ?? 0.05;
    },
  };
}

const unknowns: Sequence = {
  steps: [
    { id: 's1', scenario: 'quantum-lab-notes', skill: 'awk-fields', dependsOn: [] },
    { id: 's2', scenario: 'web-access-log', skill: 'ffmpeg-transcode', dependsOn: ['s1'] },
    { id: 's3', scenario: 'quantum-lab-notes', skill: 'awk-fields', dependsOn: ['s2'] },
  ],
};

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t.cleanup();
});

describe('resolvePriors', () => {
  it('asks the estimator once per unknown name, caches it, and the next call asks nothing', async () => {
    const first = countingEstimator({ 'scenario:quantum-lab-notes': 0.01, 'skill:ffmpeg-transcode|web-access-log': 0.02 });
    const d1 = difficulty(unknowns, await resolvePriors(t.db, unknowns, first));
    expect(first.calls).toEqual(['scenario:quantum-lab-notes', 'skill:ffmpeg-transcode|web-access-log']);
    expect(d1.steps[0]!.scenario).toMatchObject({ p: 0.01, source: 'estimated' });
    expect(d1.steps[0]!.skill.source).toBe('backoff');
    expect(d1.steps[1]!.skill).toMatchObject({ p: 0.02, source: 'estimated' });
    expect(d1.estimated).toEqual([
      { kind: 'scenario', name: 'quantum-lab-notes', given: '' },
      { kind: 'skill', name: 'ffmpeg-transcode', given: 'web-access-log' },
    ]);
    expect(d1.model).toBe(`${REFERENCE_VERSION}+fake-llm-1`);

    const rows = await t.db.priorEstimate.findMany({ orderBy: { kind: 'asc' } });
    expect(rows.map((r) => [r.kind, r.name, r.given, r.probability, r.model])).toEqual([
      ['scenario', 'quantum-lab-notes', '', 0.01, 'fake-llm-1'],
      ['skill', 'ffmpeg-transcode', 'web-access-log', 0.02, 'fake-llm-1'],
    ]);

    const second = countingEstimator({});
    const d2 = difficulty(unknowns, await resolvePriors(t.db, unknowns, second));
    expect(second.calls).toEqual([]);
    expect(d2.total).toBe(d1.total);
  });

  it('uses cached estimates without an estimator, and smooths names nobody estimated', async () => {
    const sequence: Sequence = {
      steps: [
        { id: 's1', scenario: 'quantum-lab-notes', skill: 'awk-fields', dependsOn: [] },
        { id: 's2', scenario: 'never-seen', skill: 'never-used', dependsOn: ['s1'] },
      ],
    };
    const d = difficulty(sequence, await resolvePriors(t.db, sequence));
    expect(d.steps[0]!.scenario).toMatchObject({ p: 0.01, source: 'estimated', model: 'fake-llm-1' });
    expect(d.steps[1]!.scenario).toMatchObject({ p: SCENARIO_EPSILON, source: 'smoothed' });
    expect(d.steps[1]!.skill).toMatchObject({ p: SKILL_EPSILON, source: 'smoothed' });
    expect(d.smoothed).toEqual([
      { kind: 'scenario', name: 'never-seen', given: '' },
      { kind: 'skill', name: 'never-used', given: 'never-seen' },
    ]);
    expect(await t.db.priorEstimate.count()).toBe(2);
  });

  it('never asks about names the table knows', async () => {
    const estimator = countingEstimator({});
    const known: Sequence = { steps: [{ id: 's1', scenario: 'dns-zone', skill: 'sed-rewrite', dependsOn: [] }] };
    const d = difficulty(known, await resolvePriors(t.db, known, estimator));
    expect(estimator.calls).toEqual([]);
    expect(d.model).toBe(REFERENCE_VERSION);
  });

  it('floors a zero estimate and refuses one that is not a probability', async () => {
    const zero = countingEstimator({ 'scenario:zero-land': 0 });
    const sequence: Sequence = { steps: [{ id: 's1', scenario: 'zero-land', skill: 'grep-regex', dependsOn: [] }] };
    const d = difficulty(sequence, await resolvePriors(t.db, sequence, zero));
    expect(d.steps[0]!.scenario.p).toBe(MIN_ESTIMATE);

    const broken = countingEstimator({ 'scenario:odd-land': 1.7 });
    const odd: Sequence = { steps: [{ id: 's1', scenario: 'odd-land', skill: 'grep-regex', dependsOn: [] }] };
    await expect(resolvePriors(t.db, odd, broken)).rejects.toThrow(/answered 1.7 for scenario "odd-land"/);
    expect(await t.db.priorEstimate.count({ where: { name: 'odd-land' } })).toBe(0);
  });
});

describe('storeDifficulty', () => {
  it('writes the three components and the model onto the version', async () => {
    await t.db.environmentVersion.create({ data: { id: 'v1', name: 'demo', source: 'evolution', taskToml: '', instruction: '' } });
    const d = difficulty(unknowns, await resolvePriors(t.db, unknowns));
    await storeDifficulty(t.db, 'v1', d);
    const row = await t.db.environmentVersion.findUniqueOrThrow({ where: { id: 'v1' } });
    // awk-fields 4 turns twice, the unknown ffmpeg-transcode the table's default 5; a 3-deep chain.
    expect(row).toMatchObject({
      difficultyLength: 13,
      difficultyDepth: 3,
      difficultyScenario: d.scenarioNovelty,
      difficultySkill: d.skillRarity,
      difficultyModel: d.model,
    });
  });
});
