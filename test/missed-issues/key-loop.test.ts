// The loop this feature exists for, for real (Docker, procedural synthesiser): a reviewer files
// a missed issue with an executable check, a lead converts and activates it, the NEXT evolved
// generation is judged by it, and a backtest finds the older generation that violates it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { evolveGeneration, evolveLineage, findOrCreateLineage, versionSandbox } from '../../lib/evolution/index.ts';
import { convertMissedIssue, draftFromIssue, fileMissedIssue, sendFindingToReview } from '../../lib/missed-issues/index.ts';
import { activeRubric, setItemActive } from '../../lib/rubric/index.ts';
import type { Actor } from '../../lib/auth/actor.ts';
import { listBacktestFindings, runBacktest } from '../../lib/rubric/backtest.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { ProceduralSynthesiser } from '../../lib/synth/procedural/index.ts';
import { evolutionMs, limitMs, rubricChecksMs } from '../budgets.ts';
import { context, storeProceduralSeed } from '../evolution/helpers.ts';
import { makeUser } from './users.ts';

// The seed has 2 steps and a length lineage adds one per generation: generation 1 has 3,
// generation 2 has 4, generation 3 will have 5. "At least 4 steps" separates them.
const AT_LEAST_FOUR_STEPS = `n=$(grep -c '^## Step ' instruction.md)
echo "instruction.md has $n steps"
test "$n" -ge 4`;

const LOOPS = { maxPlanRounds: 3, maxModifyRounds: 3 };
// Three generations of a length lineage (judged by the lineage's item too), then the backtest runs that item's
// check on each of them.
const KEY_LOOP_MS = limitMs(evolutionMs(3, { steps: 2, loops: LOOPS, lengthGrows: true, extraChecks: 1 }), 3 * rubricChecksMs(1));

const sandbox = new DockerSandbox();
let testDb: TestDb;
let reviewer: Actor;
let lead: Actor;

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
  reviewer = await makeUser(testDb.db, 'reviewer');
  lead = await makeUser(testDb.db, 'lead');
});
afterAll(() => testDb.cleanup());

async function rubricRunOf(generationId: string) {
  const generation = await testDb.db.generation.findUniqueOrThrow({ where: { id: generationId } });
  return testDb.db.validatorRun.findFirstOrThrow({
    where: { kind: 'rubric', versionId: generation.versionId!, attempt: { generationId } },
    orderBy: { createdAt: 'desc' },
    include: { rubricVerdicts: { include: { item: true } } },
  });
}

describe('missed issue → rubric item → next generation → backtest', () => {
  it(
    'uses an activated item from the next generation on, and the backtest finds the older violator',
    async () => {
      const { db } = testDb;
      const seedVersionId = await storeProceduralSeed(db, 101, 'seed-length');
      const lineage = await findOrCreateLineage(db, seedVersionId, {
        axisPolicy: { kind: 'fixed', axis: 'length' },
        effort: 'low',
        synthesiser: 'procedural',
        seed: 101,
        loops: LOOPS,
      });
      const ctx = context(db, sandbox, new ProceduralSynthesiser());
      const first = await evolveLineage(ctx, lineage.row.id, 2);
      expect(first.validated).toHaveLength(2);
      const [gen1, gen2] = first.validated;
      await db.generation.updateMany({ where: { id: { in: [gen1!.id, gen2!.id] } }, data: { state: 'approved' } });

      const issue = await fileMissedIssue(db, reviewer, gen2!.id, {
        title: 'Too few steps for this lineage',
        description: 'A length lineage this far along should ask for at least four steps.',
        severity: 'medium',
        validatorKind: 'rubric',
        check: AT_LEAST_FOUR_STEPS,
      });
      const { item: draft } = await convertMissedIssue(db, lead, issue.id, { ...draftFromIssue(issue), key: undefined, scope: 'lineage' });
      expect(draft).toMatchObject({ key: 'too-few-steps-for-this-lineage', version: 1, active: false, scope: 'lineage', lineageId: lineage.row.id });
      const inForce = async () => (await activeRubric(db, { lineageId: lineage.row.id, appliesTo: 'environment' })).map((i) => i.key);
      expect(await inForce()).not.toContain(draft.key);

      await setItemActive(db, lead, draft.id, true);
      expect(await inForce()).toContain(draft.key);
      // A lineage item stays out of every other lineage's rubric.
      expect((await activeRubric(db, { lineageId: 'another-lineage', appliesTo: 'environment' })).map((i) => i.key)).not.toContain(draft.key);

      const gen3 = await evolveGeneration(ctx, lineage.row.id);
      expect(gen3.state).toBe('awaiting-review');
      const run = await rubricRunOf(gen3.id);
      const verdict = run.rubricVerdicts.find((v) => v.itemId === draft.id);
      expect(verdict).toMatchObject({ method: 'executable', verdict: 'passed' });
      expect(verdict!.detail).toContain('has 5 steps');
      // The item set changed between generation 2 and 3, and the label says so.
      expect(run.rubricVersion).not.toBe((await rubricRunOf(gen2!.id)).rubricVersion);
      expect((await rubricRunOf(gen2!.id)).rubricVerdicts.some((v) => v.itemId === draft.id)).toBe(false);

      const result = await runBacktest({ db, sandboxOf: (versionId) => versionSandbox(db, sandbox, versionId), judge: null, itemId: draft.id });
      expect([...result.states].sort()).toEqual(['approved', 'awaiting-review', 'released']);
      const byGeneration = new Map(result.findings.map((f) => [f.generationId, f]));
      expect(byGeneration.get(gen1!.id)).toMatchObject({ verdict: 'failed' });
      expect(byGeneration.get(gen1!.id)!.detail).toContain('has 3 steps');
      expect(byGeneration.get(gen2!.id)).toMatchObject({ verdict: 'passed' });
      expect(byGeneration.get(gen3.id)).toMatchObject({ verdict: 'passed' });

      const [violation] = await listBacktestFindings(db, draft.id);
      expect(violation).toMatchObject({ generationId: gen1!.id, verdict: 'failed' });
      const sent = await sendFindingToReview(db, lead, violation!.id);
      expect(sent).toMatchObject({ reopened: true, generation: { state: 'awaiting-review', revision: gen1!.revision + 1 } });
      // Evolution's own moves are audited too (lib/evolution/move.ts); these are the people's.
      const events = await db.auditEvent.findMany({ where: { actorEmail: { not: 'envolve:evolution' } }, orderBy: { createdAt: 'asc' } });
      expect(events.map((e) => e.action)).toEqual(['missed-issue.file', 'rubric.create', 'missed-issue.convert', 'rubric.activate', 'generation.send-back']);
    },
    KEY_LOOP_MS,
  );
});
