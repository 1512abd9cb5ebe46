// The engine offline, for real: three seeds each evolve six validated generations in one call,
// one lineage per axis, and every edit keeps to its axis and to low effort and raises D. Each
// candidate's counter-check runs every ancestor's solution, so a lineage's validation grows with
// its depth: the 15-generation runs of three seeds are `npm run bench:evolution`'s, which
// measures them (D, counter-check and mutation pass rates per generation).
// Scenario and skill edits can only make a step rarer so many times before the catalogue runs
// out (a 2-step seed is exhausted within about 6 generations: plan-gate.test.ts); their seeds
// have 6 steps, headroom for more generations than these.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireKnownDifficulty } from '../../lib/difficulty/index.ts';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { evolveLineage, findOrCreateLineage, lineageReport, type GenerationReport } from '../../lib/evolution/index.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { ProceduralSynthesiser } from '../../lib/synth/procedural/index.ts';
import type { Axis, Sequence } from '../../lib/sequence/types.ts';
import { evolutionMs, limitMs } from '../budgets.ts';
import { context, storeProceduralSeed } from './helpers.ts';

const GENERATIONS = 6;
const LOOPS = { maxPlanRounds: 3, maxModifyRounds: 3 };
// The three lineages evolve side by side: the limit is the longest of them (the 6-step seeds, or the
// 2-step length seed growing a step per generation).
const EVOLVE_THREE_MS = limitMs(
  Math.max(evolutionMs(GENERATIONS, { steps: 2, loops: LOOPS, lengthGrows: true }), evolutionMs(GENERATIONS, { steps: 6, loops: LOOPS })),
);
const sandbox = new DockerSandbox();
let testDb: TestDb;

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
});
afterAll(() => testDb.cleanup());

async function evolveSeed(axis: Axis, seed: number, steps: number) {
  const { db } = testDb;
  const seedVersionId = await storeProceduralSeed(db, seed, `seed-${axis}`, steps);
  const lineage = await findOrCreateLineage(db, seedVersionId, {
    axisPolicy: { kind: 'fixed', axis },
    effort: 'low',
    synthesiser: 'procedural',
    seed,
    loops: LOOPS,
  });
  const result = await evolveLineage(context(db, sandbox, new ProceduralSynthesiser()), lineage.row.id, GENERATIONS);
  return { result, report: await lineageReport(db, lineage.row.id), seedVersionId };
}

const sequenceOf = (g: GenerationReport) => g.sequence as Sequence;
const multiset = (names: string[]) => [...names].sort().join(',');

describe('offline evolution with the procedural synthesiser', () => {
  let lineages: Record<Axis, Awaited<ReturnType<typeof evolveSeed>>>;

  beforeAll(async () => {
    const [length, scenario, skill] = await Promise.all([evolveSeed('length', 101, 2), evolveSeed('scenario', 202, 6), evolveSeed('skill', 303, 6)]);
    lineages = { length, scenario, skill };
  }, EVOLVE_THREE_MS);

  it(`evolves each of three seeds by ${GENERATIONS} validated generations in one call`, async () => {
    for (const { result, report } of Object.values(lineages)) {
      const unsettled = report.generations.filter((g) => g.state !== 'awaiting-review').map((g) => `${g.number} ${g.state}: ${g.error}`);
      expect(result.validated, unsettled.join('\n')).toHaveLength(GENERATIONS);
      expect(result.exhausted).toBeNull();
      const settled = report.generations.filter((g) => g.state === 'awaiting-review');
      expect(settled.map((g) => g.number)).toEqual(Array.from({ length: GENERATIONS }, (_, i) => i + 1));
      for (const g of settled) {
        expect(g.verdicts.oracle).toMatchObject({ verdict: 'passed', reward: 1 });
        expect(g.verdicts['invalid-test']).toMatchObject({ verdict: 'passed', reward: 0 });
        expect(g.verdicts.rubric?.verdict).toBe('passed');
        expect(g.verdicts.oracle?.imageId).toMatch(/^sha256:/);
      }
    }
    // No executable item fails a valid environment; an item that could not judge says why.
    const failedExecutable = await testDb.db.rubricVerdict.findMany({ where: { method: 'executable', verdict: 'failed' }, include: { item: true } });
    expect(failedExecutable.map((v) => `${v.item.key}: ${v.detail}`)).toEqual([]);
    const erredExecutable = await testDb.db.rubricVerdict.findMany({ where: { method: 'executable', verdict: 'error' } });
    for (const v of erredExecutable) expect(v.detail).toMatch(/ran out of time twice|could not run|the check itself failed/);
    // With no LLM, LLM-judged items are recorded as unjudged, never passed.
    const llmVerdicts = await testDb.db.rubricVerdict.groupBy({ by: ['verdict'], where: { method: 'llm' }, _count: true });
    expect(llmVerdicts.map((v) => v.verdict)).toEqual(['unjudged']);
  });

  it('raises D by more than the margin at every generation on every axis', () => {
    for (const { report } of Object.values(lineages)) {
      const totals = report.generations
        .filter((g) => g.state === 'awaiting-review')
        .map((g) => requireKnownDifficulty(g.difficulty, `generation ${g.number}`).total);
      for (let i = 1; i < totals.length; i++) expect(totals[i]! - totals[i - 1]!).toBeGreaterThan(0.05);
    }
  });

  it('length raises L and deepens the chain by one at every generation, each new step consuming an existing one', () => {
    const settled = lineages.length.report.generations.filter((g) => g.state === 'awaiting-review');
    expect(settled.map((g) => g.difficulty!.depth)).toEqual(Array.from({ length: GENERATIONS }, (_, i) => i + 3)); // the seed's chain is 2 deep
    for (let i = 1; i < settled.length; i++) {
      const parent = sequenceOf(settled[i - 1]!);
      const child = sequenceOf(settled[i]!);
      expect(requireKnownDifficulty(settled[i]!.difficulty, 'child').length).toBeGreaterThan(
        requireKnownDifficulty(settled[i - 1]!.difficulty, 'parent').length,
      );
      const parentIds = new Set(parent.steps.map((s) => s.id));
      const inserted = child.steps.filter((s) => !parentIds.has(s.id));
      expect(inserted).toHaveLength(1);
      expect(inserted[0]!.dependsOn.length).toBeGreaterThan(0);
      for (const dep of inserted[0]!.dependsOn) expect(parentIds.has(dep)).toBe(true);
    }
  });

  it('scenario edits change one scenario and keep the skill multiset; skill edits change one skill and keep scenarios', () => {
    for (const axis of ['scenario', 'skill'] as const) {
      const settled = lineages[axis].report.generations.filter((g) => g.state === 'awaiting-review');
      let parent = sequenceOf(settled[0]!);
      for (const g of settled.slice(1)) {
        const child = sequenceOf(g);
        const kept = axis === 'scenario' ? 'skill' : 'scenario';
        expect(multiset(child.steps.map((s) => s[kept]))).toBe(multiset(parent.steps.map((s) => s[kept])));
        const changed = child.steps.filter((s, i) => s[axis] !== parent.steps[i]![axis]);
        expect(changed).toHaveLength(1); // low effort: exactly one step
        expect(child.steps.map((s) => s.id)).toEqual(parent.steps.map((s) => s.id));
        parent = child;
      }
    }
  });

  it('stores every plan round, attempt, residual and validator run of every generation', async () => {
    const { db } = testDb;
    const generations = await db.generation.findMany({ include: { planRounds: true, attempts: { include: { validatorRuns: true } } } });
    for (const g of generations) {
      expect(g.planRounds.length).toBeGreaterThan(0);
      const valid = g.attempts.find((a) => a.state === 'valid');
      expect(valid, `generation ${g.number} (${g.state}) has no valid attempt: ${g.error}`).toBeDefined();
      if (!valid) continue;
      expect(valid.residual).toBeTruthy();
      expect(valid.candidateVersionId).toBe(g.versionId);
      // A procedural candidate carries near misses, and has at least its seed as an ancestor to counter-check.
      expect(valid.validatorRuns.map((r) => r.kind).sort()).toEqual(['counter-check', 'invalid-test', 'near-miss', 'oracle', 'rubric']);
      expect(valid.validatorRuns.find((r) => r.kind === 'rubric')!.rubricVersion).toMatch(/^r-/);
    }
  });
});
