// A generation held for a person because a rubric check ran out of time: `evolve`
// says the lineage stopped there and makes nothing — not the same generation number again from
// the same parent — until an exit is taken; the retry exit validates the same candidate again
// with its budgets multiplied, and a check that needed more time passes. Real sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { evolveLineage, findOrCreateLineage, revalidateHeld, takeAttentionExit } from '../../lib/evolution/index.ts';
import { saveRubricItem } from '../../lib/rubric/index.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { ProceduralSynthesiser } from '../../lib/synth/procedural/index.ts';
import { candidateValidationMs, evolutionMs, limitMs, proceduralTaskBudgets, withBudgetFactor } from '../budgets.ts';
import { context, storeProceduralSeed } from './helpers.ts';

const sandbox = new DockerSandbox();
let testDb: TestDb;
const reviewer = { id: 'u-ria', email: 'ria@example.test', role: 'reviewer' };

// The check sleeps longer than its first budget and its own retry (1 s, then 3 s), and less than
// the first budget of an ×8 retry exit (8 s).
const CHECK_SEC = 4;
const FIRST_CHECK_SEC = 1;
const EXIT_FACTOR = 8;

const LOOPS = { maxPlanRounds: 2, maxModifyRounds: 2 };
// A length lineage judged by the slow lineage item too.
const LINEAGE = { loops: LOOPS, lengthGrows: true, extraChecks: 1 };

// Three loops: the held generation (one step longer than the seed), its re-validation with every budget
// multiplied by the exit's factor, and the next generation with the larger check budget.
function budgetMs(): number {
  const held = evolutionMs(1, { steps: 2, ...LINEAGE, checkTimeoutSec: FIRST_CHECK_SEC });
  const retryChecks = { extraChecks: 1, checkTimeoutSec: EXIT_FACTOR * FIRST_CHECK_SEC };
  // Generation 1 is counter-checked against the seed.
  const revalidation = candidateValidationMs(withBudgetFactor(proceduralTaskBudgets(3), EXIT_FACTOR), { ...retryChecks, ancestors: 1 });
  const next = evolutionMs(1, { steps: 3, ...LINEAGE, ...retryChecks });
  return limitMs(held, revalidation, next);
}

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
  await testDb.db.user.create({ data: { id: reviewer.id, email: reviewer.email, name: 'Ria' } });
});
afterAll(() => testDb.cleanup());

describe('a needs-attention generation', () => {
  it(
    'stops evolution until an exit is taken, and the retry exit re-validates it with a larger budget',
    async () => {
      const { db } = testDb;
      const seedVersionId = await storeProceduralSeed(db, 47, 'attention-retry');
      const lineage = await findOrCreateLineage(db, seedVersionId, {
        axisPolicy: { kind: 'fixed', axis: 'length' },
        effort: 'low',
        synthesiser: 'procedural',
        seed: 47,
        loops: LOOPS,
      });
      await saveRubricItem(db, {
        key: 'aaa_slow_check',
        title: 'a slow check',
        description: `a check that needs ${CHECK_SEC} s`,
        check: `sleep ${CHECK_SEC}`,
        question: null,
        appliesTo: 'environment',
        scope: 'lineage',
        lineageId: lineage.row.id,
        source: 'missed-issue',
      });
      const ctx = { ...context(db, sandbox, new ProceduralSynthesiser()), rubricCheckTimeoutSec: FIRST_CHECK_SEC };
      const first = await evolveLineage(ctx, lineage.row.id, 1);
      const held = first.needsAttention!;
      expect(held).toMatchObject({ state: 'needs-attention', number: 1 });

      // Stopped: nothing made, and it says which exits there are.
      const again = await evolveLineage(ctx, lineage.row.id, 1);
      expect(again.stopped).toMatchObject({ kind: 'needs-attention', generationId: held.id, number: 1 });
      expect(again.stopped!.message).toContain(`envolve attention ${held.id}`);
      expect(await db.generation.count({ where: { lineageId: lineage.row.id } })).toBe(1);

      const retrying = await takeAttentionExit(db, reviewer, held.id, { exit: 'retry', budgetFactor: EXIT_FACTOR, revision: held.revision });
      expect(retrying.state).toBe('validating');
      const settled = await revalidateHeld(ctx, held.id, EXIT_FACTOR);
      expect(settled).toMatchObject({ state: 'awaiting-review', versionId: held.versionId, error: null });
      const attempts = await db.attempt.findMany({ where: { generationId: held.id }, orderBy: { number: 'asc' }, include: { validatorRuns: true } });
      expect(attempts.map((a) => [a.number, a.state, a.candidateVersionId])).toEqual([
        [1, 'inconclusive', held.versionId],
        [2, 'valid', held.versionId],
      ]);
      expect(attempts[1]!.validatorRuns.map((r) => [r.kind, r.verdict]).sort()).toEqual([
        ['counter-check', 'passed'],
        ['invalid-test', 'passed'],
        ['near-miss', 'passed'],
        ['oracle', 'passed'],
        ['rubric', 'passed'],
      ]);
      const actions = (await db.auditEvent.findMany({ where: { subjectId: held.id }, orderBy: { createdAt: 'asc' } })).map((a) => a.action);
      expect(actions.slice(-2)).toEqual(['generation.retry', 'generation.revalidate']);

      // Evolution continues from it: generation 2, built on the accepted candidate.
      const next = await evolveLineage({ ...ctx, rubricCheckTimeoutSec: EXIT_FACTOR * FIRST_CHECK_SEC }, lineage.row.id, 1);
      expect(next.validated.map((g) => [g.number, g.parentVersionId])).toEqual([[2, held.versionId]]);
    },
    budgetMs(),
  );
});
