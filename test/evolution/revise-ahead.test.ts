// Evolution runs ahead of review: four generations await review when a reviewer requests changes
// on the second. The third and fourth rest on the version the revision replaces (the fourth only
// through the third), so the request supersedes them (audited, with why) in its own transaction;
// evolution refuses to run while the revision is pending; the revision settles on a new version
// and queues the rebuild of two generations, which evolve from the revised version. Nothing standing, queued for review or
// drawn in the tree rests on the replaced version. Real sandbox, procedural synthesiser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { getLineageTree } from '../../lib/dashboard/lineages.ts';
import { EVOLVE_JOB, evolveJobPayload, evolveLineage, findOrCreateLineage, reviseGeneration, reviseJobPayload, REVISE_JOB } from '../../lib/evolution/index.ts';
import { GenerationState, STANDING_STATES } from '../../lib/states/states.ts';
import { decide, DecisionRefusedError, reviewQueue } from '../../lib/review/index.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { DEFAULT_SCHEDULER_CONFIG } from '../../lib/scheduler/index.ts';
import { ProceduralSynthesiser } from '../../lib/synth/procedural/index.ts';
import { candidateValidationMs, DEFAULT_LOOPS, evolutionMs, limitMs, proceduralTaskBudgets } from '../budgets.ts';
import { context, storeProceduralSeed } from './helpers.ts';

const SEED_STEPS = 2;
// The loops the test waits on: four generations of a length lineage (one step added per generation), the
// revision of generation 2 (a modify loop of its own), and generations 3 and 4 rebuilt on it.
function budgetMs(): number {
  const lineage = { lengthGrows: true };
  const revision = DEFAULT_LOOPS.maxModifyRounds * candidateValidationMs(proceduralTaskBudgets(SEED_STEPS + 2), { ancestors: 2 });
  return limitMs(evolutionMs(4, { steps: SEED_STEPS, ...lineage }), revision, evolutionMs(2, { steps: SEED_STEPS + 2, ...lineage }));
}

const sandbox = new DockerSandbox();
let testDb: TestDb;
const reviewer = { id: 'u-rosa', email: 'rosa@example.test', role: 'reviewer' };

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
  await testDb.db.user.create({ data: { id: reviewer.id, email: reviewer.email, name: 'Rosa' } });
});
afterAll(() => testDb.cleanup());

describe('requesting changes on a generation that evolution has already built on', () => {
  it(
    'supersedes its descendants with the request and rebuilds them on the revised version',
    async () => {
      const { db } = testDb;
      const seedVersionId = await storeProceduralSeed(db, 83, 'revise-ahead', SEED_STEPS);
      const lineage = await findOrCreateLineage(db, seedVersionId, {
        axisPolicy: { kind: 'fixed', axis: 'length' },
        effort: 'low',
        synthesiser: 'procedural',
        seed: 83,
      });
      const lineageId = lineage.row.id;
      const ctx = context(db, sandbox, new ProceduralSynthesiser());
      const first = await evolveLineage(ctx, lineageId, 4);
      expect(first.validated.map((g) => g.number)).toEqual([1, 2, 3, 4]);
      const [, second, third] = first.validated;
      const replacedVersion = second!.versionId!;

      // The request: G3 and G4 superseded in the same transaction, each with why, and audited.
      const comment = 'the added step does not depend on the previous one';
      await decide(db, { generationId: second!.id, user: reviewer, decision: 'request-changes', comment, revision: second!.revision });
      const afterRequest = await db.generation.findMany({ where: { lineageId }, orderBy: { number: 'asc' } });
      expect(afterRequest.map((g) => `${g.number}:${g.state}`)).toEqual(['1:awaiting-review', '2:changes-requested', '3:superseded', '4:superseded']);
      expect(afterRequest[2]!.error).toBe(
        `superseded: built on generation 2's version ${replacedVersion.slice(0, 12)}, which a reviewer sent back for changes; the lineage evolves again from its revision`,
      );
      expect(afterRequest[3]!.error).toBe('superseded: built on generation 3, which was itself superseded');
      const request = await db.auditEvent.findFirstOrThrow({ where: { subjectId: second!.id, action: 'generation.request-changes' } });
      expect(JSON.parse(request.after!).superseded).toEqual(afterRequest.slice(2).map((g) => g.id));
      expect(await db.auditEvent.count({ where: { action: 'generation.supersede', subjectId: { in: afterRequest.slice(2).map((g) => g.id) } } })).toBe(2);
      const [reviseJob] = await db.job.findMany({ where: { kind: REVISE_JOB } });
      expect(reviseJobPayload.parse(JSON.parse(reviseJob!.payload))).toEqual({ generationId: second!.id, comment, rebuild: 2 });

      // Nobody reviews G3 on the replaced version, and evolution does not run ahead of the revision.
      expect((await reviewQueue(db)).items.map((i) => i.number)).toEqual([1]);
      await expect(decide(db, { generationId: third!.id, user: reviewer, decision: 'approve', comment: '', revision: third!.revision + 1 })).rejects.toThrow(
        DecisionRefusedError,
      );
      const waiting = await evolveLineage(ctx, lineageId, 1);
      expect(waiting.stopped).toMatchObject({ kind: 'revision-pending', number: 2 });
      expect(await db.generation.count({ where: { lineageId } })).toBe(4);

      // The revision settles on a new version and queues the rebuild with it.
      const revised = await reviseGeneration(ctx, second!.id, comment, 2);
      expect(revised.state).toBe(GenerationState.awaitingReview);
      expect(revised.versionId).not.toBe(replacedVersion);
      const [rebuildJob] = await db.job.findMany({ where: { kind: EVOLVE_JOB } });
      const rebuild = evolveJobPayload.parse(JSON.parse(rebuildJob!.payload));
      expect(rebuild).toEqual({ lineageId, generations: 2 });

      // The worker's evolve job, run here: G3 and G4 again, each on the revised chain.
      const again = await evolveLineage(ctx, lineageId, rebuild.generations);
      expect(again.validated.map((g) => g.number)).toEqual([3, 4]);
      let parent = revised.versionId!;
      for (const g of again.validated) {
        expect(g.parentVersionId).toBe(parent);
        parent = g.versionId!;
      }

      // Nothing standing rests on the replaced version; the queue holds the revision and the rebuilt
      // chain; the tree names the superseded ones' reason and hangs them under generation 2.
      const standing = await db.generation.findMany({ where: { lineageId, state: { in: [...STANDING_STATES] } } });
      expect(standing.filter((g) => g.parentVersionId === replacedVersion)).toEqual([]);
      const queued = (await reviewQueue(db)).items.filter((i) => i.lineageId === lineageId);
      expect(queued.map((i) => i.number).sort()).toEqual([1, 2, 3, 4]);
      expect(queued.map((i) => i.generationId)).not.toContain(third!.id);
      const tree = await getLineageTree(db, lineageId, { config: DEFAULT_SCHEDULER_CONFIG });
      expect(tree!.generations.map((g) => `${g.number}:${g.state}`)).toEqual([
        '1:awaiting-review',
        '2:awaiting-review',
        '3:superseded',
        '3:awaiting-review',
        '4:superseded',
        '4:awaiting-review',
      ]);
      const oldThird = tree!.generations.find((g) => g.id === third!.id)!;
      expect(oldThird.parentVersionId).toBe(replacedVersion);
      expect(tree!.generations.find((g) => g.number === 2)!.attempts.some((a) => a.candidateVersionId === replacedVersion)).toBe(true);
    },
    budgetMs(),
  );
});
