// Deliberately broken modifier output is caught by the validators: repaired on the next
// attempt, or, when it never passes, recorded as a failed generation with all its attempts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { evolveGeneration, evolveLineage, findOrCreateLineage } from '../../lib/evolution/index.ts';
import { saveRubricItem } from '../../lib/rubric/index.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { ProceduralSynthesiser } from '../../lib/synth/procedural/index.ts';
import type { ModifyInput, ModifyOutput } from '../../lib/synth/types.ts';
import { evolutionMs, limitMs, type EvolutionShape } from '../budgets.ts';
import { context, storeProceduralSeed } from './helpers.ts';

const sandbox = new DockerSandbox();
let testDb: TestDb;

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
});
afterAll(() => testDb.cleanup());

const PLAN_ROUNDS = 2;

// The limit for evolving `generations` generations of a lineageFor lineage.
function repairLimitMs(generations: number, maxModifyRounds: number, rubric: Pick<EvolutionShape, 'extraChecks' | 'checkTimeoutSec'> = {}): number {
  return limitMs(evolutionMs(generations, { steps: 2, loops: { maxPlanRounds: PLAN_ROUNDS, maxModifyRounds }, lengthGrows: true, ...rubric }));
}

async function lineageFor(seed: number, maxModifyRounds = 3) {
  const seedVersionId = await storeProceduralSeed(testDb.db, seed, `repair-${seed}`);
  return findOrCreateLineage(testDb.db, seedVersionId, {
    axisPolicy: { kind: 'fixed', axis: 'length' },
    effort: 'low',
    synthesiser: 'procedural',
    seed,
    loops: { maxPlanRounds: PLAN_ROUNDS, maxModifyRounds },
  });
}

async function attemptsOf(generationId: string) {
  return testDb.db.attempt.findMany({
    where: { generationId },
    orderBy: { number: 'asc' },
    include: { validatorRuns: { orderBy: { kind: 'asc' } } },
  });
}

describe('Loop 2 with a broken modifier', () => {
  it(
    'catches a solution that fails with the oracle, then repairs it',
    async () => {
      const lineage = await lineageFor(41);
      const synthesiser = new ProceduralSynthesiser({ faults: { attempt1: 'wrong-solution' } });
      const generation = await evolveGeneration(context(testDb.db, sandbox, synthesiser), lineage.row.id);
      expect(generation.state).toBe('awaiting-review');
      const [first, second] = await attemptsOf(generation.id);
      expect(first!.state).toBe('invalid');
      expect(first!.validatorRuns.find((r) => r.kind === 'oracle')).toMatchObject({ verdict: 'failed', reward: 0 });
      expect(second!.state).toBe('valid');
      expect(second!.feedback).toMatch(/oracle failed/);
      expect(generation.versionId).toBe(second!.candidateVersionId);
    },
    repairLimitMs(1, 3),
  );

  it(
    'catches tests that pass on nothing with invalid-test, then repairs them',
    async () => {
      const lineage = await lineageFor(42);
      const synthesiser = new ProceduralSynthesiser({ faults: { attempt1: 'lenient-tests' } });
      const generation = await evolveGeneration(context(testDb.db, sandbox, synthesiser), lineage.row.id);
      expect(generation.state).toBe('awaiting-review');
      const [first, second] = await attemptsOf(generation.id);
      expect(first!.validatorRuns.find((r) => r.kind === 'invalid-test')).toMatchObject({ verdict: 'failed', reward: 1 });
      expect(second!.state).toBe('valid');
    },
    repairLimitMs(1, 3),
  );

  it(
    'records a generation that never validates as failed, with every attempt kept',
    async () => {
      const lineage = await lineageFor(43, 2);
      const synthesiser = new ProceduralSynthesiser({ faults: { attempt1: 'wrong-solution', attempt2: 'lenient-tests' } });
      const generation = await evolveGeneration(context(testDb.db, sandbox, synthesiser), lineage.row.id);
      expect(generation.state).toBe('failed');
      expect(generation.versionId).toBeNull();
      expect(generation.error).toMatch(/no valid candidate/);
      const attempts = await attemptsOf(generation.id);
      expect(attempts.map((a) => a.state)).toEqual(['invalid', 'invalid']);
      // oracle, invalid-test, counter-check (against the seed's solution), near misses and rubric.
      expect(attempts.every((a) => a.candidateVersionId && a.residual && a.validatorRuns.length === 5)).toBe(true);
    },
    repairLimitMs(1, 2),
  );

  it(
    'does not run a retry that would be byte-identical to a failed attempt, and records why',
    async () => {
      const lineage = await lineageFor(44, 3);
      // A modifier deaf to feedback: every attempt renders the same broken candidate.
      class DeafModifier extends ProceduralSynthesiser {
        override modify(input: ModifyInput): Promise<ModifyOutput> {
          return super.modify({ ...input, attempt: 1, feedback: [] });
        }
      }
      const synthesiser = new DeafModifier({ faults: { attempt1: 'wrong-solution' } });
      const generation = await evolveGeneration(context(testDb.db, sandbox, synthesiser), lineage.row.id);
      expect(generation.state).toBe('failed');
      const attempts = await attemptsOf(generation.id);
      expect(attempts.map((a) => a.state)).toEqual(['invalid', 'skipped', 'skipped']);
      for (const skipped of attempts.slice(1)) {
        expect(skipped.error).toMatch(/byte-identical to attempt 1 \(content hash [0-9a-f]{12}\), which already failed/);
        expect(skipped.validatorRuns).toHaveLength(0);
      }
    },
    repairLimitMs(1, 3),
  );
});

describe('Loop 2 when a validator reaches no verdict', () => {
  const CHECK_TIMEOUT_SEC = 2;
  it(
    'holds the generation for a person after one attempt instead of retrying an identical candidate',
    async () => {
      const lineage = await lineageFor(44);
      await saveRubricItem(testDb.db, {
        key: 'aaa_never_finishes',
        title: 'never finishes',
        description: 'a check that runs out of any budget',
        check: 'sleep 600',
        question: null,
        appliesTo: 'environment',
        scope: 'lineage',
        lineageId: lineage.row.id,
        source: 'missed-issue',
      });
      const ctx = { ...context(testDb.db, sandbox, new ProceduralSynthesiser()), rubricCheckTimeoutSec: CHECK_TIMEOUT_SEC };
      const result = await evolveLineage(ctx, lineage.row.id, 3);
      expect(result.validated).toHaveLength(0);
      expect(result.failed).toHaveLength(0);
      const held = result.needsAttention!;
      expect(held).toMatchObject({ state: 'needs-attention', number: 1 });
      expect(held.error).toMatch(/^held for a person: no validator found a fault, but rubric reached no verdict: rubric aaa_never_finishes error/);
      const attempts = await attemptsOf(held.id);
      expect(attempts.map((a) => a.state)).toEqual(['inconclusive']);
      expect(held.versionId).toBe(attempts[0]!.candidateVersionId);
      expect(attempts[0]!.validatorRuns.map((r) => [r.kind, r.verdict])).toEqual([
        ['counter-check', 'passed'],
        ['invalid-test', 'passed'],
        ['near-miss', 'passed'],
        ['oracle', 'passed'],
        ['rubric', 'error'],
      ]);
      const row = await testDb.db.lineage.findUniqueOrThrow({ where: { id: lineage.row.id } });
      expect(row.status).toBe('needs-attention');
    },
    repairLimitMs(3, 3, { extraChecks: 1, checkTimeoutSec: CHECK_TIMEOUT_SEC }),
  );
});
