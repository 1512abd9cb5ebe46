// Evolution runs ahead of review (the `npm run up` demo does): five generations await review when
// a reviewer rejects the third. The fourth and fifth, evolved from it, are superseded — kept,
// visible with why, never served — and the next evolution continues from the second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { evolveLineage, findOrCreateLineage, lineageReport } from '../../lib/evolution/index.ts';
import { decide } from '../../lib/review/index.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { ProceduralSynthesiser } from '../../lib/synth/procedural/index.ts';
import { context, storeProceduralSeed } from './helpers.ts';

const sandbox = new DockerSandbox();
let testDb: TestDb;
const reviewer = { id: 'u-rita', email: 'rita@example.test', role: 'reviewer' };

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
  await testDb.db.user.create({ data: { id: reviewer.id, email: reviewer.email, name: 'Rita' } });
});
afterAll(() => testDb.cleanup());

describe('rejecting a generation that evolution has already built on', () => {
  it('supersedes its descendants and lets the next evolve continue from the last good generation', async () => {
    const { db } = testDb;
    const seedVersionId = await storeProceduralSeed(db, 71, 'reject-ahead');
    const lineage = await findOrCreateLineage(db, seedVersionId, {
      axisPolicy: { kind: 'fixed', axis: 'length' },
      effort: 'low',
      synthesiser: 'procedural',
      seed: 71,
    });
    const ctx = context(db, sandbox, new ProceduralSynthesiser());
    const first = await evolveLineage(ctx, lineage.row.id, 5);
    expect(first.validated.map((g) => g.number)).toEqual([1, 2, 3, 4, 5]);
    const [, second, third, fourth, fifth] = first.validated;

    await decide(db, { generationId: third!.id, user: reviewer, decision: 'reject', comment: 'the new step repeats step 2', revision: third!.revision });
    const states = await db.generation.findMany({ where: { lineageId: lineage.row.id }, orderBy: { number: 'asc' } });
    expect(states.map((g) => g.state)).toEqual(['awaiting-review', 'awaiting-review', 'rejected', 'superseded', 'superseded']);
    expect(states[3]!.error).toBe('superseded: evolved from generation 3, which a reviewer rejected');
    const audit = await db.auditEvent.findFirstOrThrow({ where: { subjectId: third!.id, action: 'generation.reject' } });
    expect(JSON.parse(audit.after!).superseded).toEqual([fourth!.id, fifth!.id]);

    const next = await evolveLineage(ctx, lineage.row.id, 1);
    expect(next.validated).toHaveLength(1);
    const resumed = next.validated[0]!;
    expect(resumed.number).toBe(3);
    expect(resumed.parentVersionId).toBe(second!.versionId);
    expect(resumed.state).toBe('awaiting-review');

    // Everything stays visible in the lineage report, superseded generations with their reason.
    const report = await lineageReport(db, lineage.row.id);
    expect(report.generations.map((g) => `${g.number}:${g.state}`)).toEqual([
      '1:awaiting-review',
      '2:awaiting-review',
      '3:rejected',
      '3:awaiting-review',
      '4:superseded',
      '5:superseded',
    ]);
  });
});
