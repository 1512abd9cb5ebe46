// Harder means harder, for real: the shipped demo seed evolves 5 generations on the skill axis, 5 on
// the scenario axis and 3 on the length axis (procedural synthesiser, real containers). Every
// generation must ask something no ancestor's solution answers, as it is or after its wrappers and
// noise are undone, and its tests must reject every near miss written for it: both read from the
// validators' own per-run reports, which judge the child's tests in the sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidatorRun } from '../../lib/db/index.ts';
import { importPath, loadBundle } from '../../lib/env/index.ts';
import { evolveLineage, findOrCreateLineage, lineageReport, type LineageReport } from '../../lib/evolution/index.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { diffSequences, type Axis, type Sequence } from '../../lib/sequence/index.ts';
import { ProceduralSynthesiser } from '../../lib/synth/procedural/index.ts';
import { parseSolutionCheckReport } from '../../lib/validate/index.ts';
import { evolutionMs, limitMs } from '../budgets.ts';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { context } from './helpers.ts';

const SEED_DIR = 'examples/tasks/seed-logs-awk';
const PLAN: Record<Axis, number> = { skill: 5, scenario: 5, length: 3 };
const LOOPS = { maxPlanRounds: 3, maxModifyRounds: 3 };
// The seed has 2 steps; each step carries at most a handful of near misses (its skill's and its domain's).
const NEAR_MISSES_PER_STEP = 6;
const EVOLVE_ALL_MS = limitMs(
  Math.max(
    evolutionMs(PLAN.skill, { steps: 2, loops: LOOPS, nearMisses: 2 * NEAR_MISSES_PER_STEP }),
    evolutionMs(PLAN.length, { steps: 2, loops: LOOPS, lengthGrows: true, nearMisses: (2 + PLAN.length) * NEAR_MISSES_PER_STEP }),
  ),
);

const sandbox = new DockerSandbox();
let testDb: TestDb;
let seedVersionId: string;

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
  const [imported] = await importPath(testDb.db, SEED_DIR);
  seedVersionId = imported!.versionId!;
});
afterAll(() => testDb.cleanup());

async function evolveAlong(axis: Axis): Promise<LineageReport> {
  const { db } = testDb;
  const lineage = await findOrCreateLineage(db, seedVersionId, {
    axisPolicy: { kind: 'fixed', axis },
    effort: 'low',
    synthesiser: 'procedural',
    seed: 43,
    loops: LOOPS,
  });
  await evolveLineage(context(db, sandbox, new ProceduralSynthesiser()), lineage.row.id, PLAN[axis]);
  return lineageReport(db, lineage.row.id);
}

describe('every evolved generation is genuinely harder', () => {
  let reports: Record<Axis, LineageReport>;
  beforeAll(async () => {
    const [skill, scenario, length] = await Promise.all([evolveAlong('skill'), evolveAlong('scenario'), evolveAlong('length')]);
    reports = { skill, scenario, length };
  }, EVOLVE_ALL_MS);

  for (const axis of ['skill', 'scenario', 'length'] as const) {
    it(`${axis}: ${PLAN[axis]} generations, none answered by an ancestor's solution, every near miss rejected`, async () => {
      const report = reports[axis];
      const settled = report.generations.filter((g) => g.state === 'awaiting-review');
      const unsettled = report.generations.filter((g) => g.state !== 'awaiting-review').map((g) => `${g.number} ${g.state}: ${g.error}`);
      expect(
        settled.map((g) => g.number),
        unsettled.join('\n'),
      ).toEqual(Array.from({ length: PLAN[axis] }, (_, i) => i + 1));

      const runs = await testDb.db.validatorRun.findMany({
        where: { versionId: { in: settled.map((g) => g.versionId!) }, kind: { in: ['counter-check', 'near-miss'] } },
      });
      let previous = await new ProceduralSynthesiser().extractSequence(await loadBundle(testDb.db, seedVersionId));
      for (const g of settled) {
        const sequence = g.sequence as Sequence;
        const diff = diffSequences(previous, sequence);
        const changed = [...new Set([...diff.inserted, ...diff.replaced.map((r) => r.stepId), ...diff.rewired])];
        expect(changed.length, `generation ${g.number} changed no step`).toBeGreaterThan(0);
        const of = (kind: string): ValidatorRun => {
          const run = runs.filter((r) => r.versionId === g.versionId && r.kind === kind).at(-1);
          expect(run, `generation ${g.number} has no ${kind} verdict`).toBeDefined();
          return run!;
        };
        // Every ancestor (the parent back to the seed) ran as it is and on unwrapped data; none passed a changed step.
        const counter = parseSolutionCheckReport(of('counter-check').rewardDetail)!;
        expect(
          of('counter-check').verdict,
          counter.runs
            .filter((r) => r.outcome !== 'caught')
            .map((r) => `${r.label}: ${r.why}`)
            .join('\n'),
        ).toBe('passed');
        expect(counter.total).toBe(2 * g.number);
        expect(counter.caught).toBe(counter.total);
        expect(counter.checkedSteps).toEqual(expect.arrayContaining(changed));
        // Every near miss written for every step scored 0, and failed the step it was written for.
        const nearMiss = parseSolutionCheckReport(of('near-miss').rewardDetail)!;
        expect(
          of('near-miss').verdict,
          nearMiss.runs
            .filter((r) => r.outcome !== 'caught')
            .map((r) => `${r.label}: ${r.why}`)
            .join('\n'),
        ).toBe('passed');
        expect(nearMiss.total).toBeGreaterThanOrEqual(sequence.steps.length);
        expect(nearMiss.caught).toBe(nearMiss.total);
        previous = sequence;
      }
    });
  }
});
