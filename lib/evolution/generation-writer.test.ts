// The one writer of generation states, against a real database (SQLite here, PostgreSQL with
// ENVOLVE_TEST_DATABASE=postgresql): a change bumps the revision and is audited in the caller's
// transaction, a stale reader or a move the machine does not allow changes nothing, and the lint
// rule refuses a generation write anywhere else.
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../db/test-db.ts';
import { changeGenerationState, createGeneration, StaleGenerationError, type StateChange } from './generation-writer.ts';
import { GenerationState as S, IllegalTransitionError, type GenerationState } from '../states/states.ts';

const ACTOR = { id: null, email: 'writer-test@envolve' };

let testDb: TestDb;
let db: Db;
let seed: string;
let lineageId: string;
beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  seed = await seedEnvironment(db, { name: 'writer seed' });
  lineageId = (
    await db.lineage.create({
      data: { name: 'w', seedVersionId: seed, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1 },
    })
  ).id;
});
afterAll(() => testDb.cleanup());

// A generation seeded straight into `state` (tests may seed rows; product code may not).
async function seeded(state: GenerationState, revision = 3) {
  const versionId = await seedEnvironment(db, { name: `version ${Math.random()}` });
  return db.generation.create({ data: { lineageId, number: 1, parentVersionId: seed, versionId, axis: 'length', effort: 'low', state, revision } });
}

const change = (to: GenerationState, extra: Partial<StateChange> = {}): StateChange => ({
  to,
  audit: { actor: ACTOR, action: 'generation.test', after: { reason: 'because' } },
  ...extra,
});
const auditsOf = (id: string) => db.auditEvent.findMany({ where: { subjectId: id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });

describe('changeGenerationState', () => {
  it('moves the state with its data, bumps the revision and audits the move', async () => {
    const g = await seeded(S.approved);
    const moved = await db.$transaction((tx) =>
      changeGenerationState(tx, g, change(S.released, { data: { releasedByPolicy: 'simulated', releaseRule: '{}' } })),
    );
    expect(moved).toMatchObject({ state: S.released, revision: 4, releasedByPolicy: 'simulated', releaseRule: '{}' });
    const [audit, ...more] = await auditsOf(g.id);
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ action: 'generation.test', actorEmail: ACTOR.email, subjectType: 'generation' });
    expect(JSON.parse(audit!.before!)).toEqual({ state: S.approved, revision: 3, versionId: g.versionId });
    expect(JSON.parse(audit!.after!)).toEqual({ state: S.released, revision: 4, versionId: g.versionId, reason: 'because' });
  });

  it('refuses a reader holding an older revision, and changes nothing', async () => {
    const g = await seeded(S.awaitingReview);
    const stale = { ...g, revision: g.revision - 1 };
    const refused = await db.$transaction((tx) => changeGenerationState(tx, stale, change(S.approved))).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(StaleGenerationError);
    expect(refused).toMatchObject({ code: 'stale_generation', current: { state: S.awaitingReview, revision: 3 } });
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: S.awaitingReview, revision: 3 });
    expect(await auditsOf(g.id)).toEqual([]);
  });

  it('refuses a reader who saw another state at the same revision', async () => {
    const g = await seeded(S.approved);
    await expect(db.$transaction((tx) => changeGenerationState(tx, { ...g, state: S.awaitingReview }, change(S.rejected)))).rejects.toThrow(
      StaleGenerationError,
    );
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: S.approved, revision: 3 });
  });

  it('refuses a move the state machine does not allow, and changes nothing', async () => {
    const g = await seeded(S.rejected);
    await expect(db.$transaction((tx) => changeGenerationState(tx, g, change(S.released)))).rejects.toThrow(IllegalTransitionError);
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: S.rejected, revision: 3 });
    expect(await auditsOf(g.id)).toEqual([]);
  });

  it('commits the move and its audit row together: a later failure in the transaction rolls both back', async () => {
    const g = await seeded(S.awaitingReview);
    const later = new Error('the step after the move failed');
    await expect(
      db.$transaction(async (tx) => {
        await changeGenerationState(tx, g, change(S.approved));
        throw later;
      }),
    ).rejects.toBe(later);
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: S.awaitingReview, revision: 3 });
    expect(await auditsOf(g.id)).toEqual([]);
  });

  it('records what the move brought about in the same audit row', async () => {
    const g = await seeded(S.awaitingReview);
    await db.$transaction((tx) =>
      changeGenerationState(tx, g, {
        to: S.rejected,
        audit: { actor: ACTOR, action: 'generation.reject', effects: async (_tx, moved) => ({ sawRevision: moved.revision }) },
      }),
    );
    const [audit] = await auditsOf(g.id);
    expect(JSON.parse(audit!.after!)).toMatchObject({ state: S.rejected, revision: 4, sawRevision: 4 });
  });

  it('restores an earlier revision for an undo, and never a later or the same one', async () => {
    const g = await seeded(S.approved, 5);
    const back = await db.$transaction((tx) => changeGenerationState(tx, g, change(S.awaitingReview, { restoreRevision: 4 })));
    expect(back).toMatchObject({ state: S.awaitingReview, revision: 4 });
    const again = await seeded(S.approved, 5);
    await expect(db.$transaction((tx) => changeGenerationState(tx, again, change(S.awaitingReview, { restoreRevision: 5 })))).rejects.toThrow(
      /cannot restore revision 5/,
    );
    expect(await db.generation.findUniqueOrThrow({ where: { id: again.id } })).toMatchObject({ state: S.approved, revision: 5 });
  });
});

describe('createGeneration', () => {
  it('starts a generation in the initial state at revision 0', async () => {
    const created = await createGeneration(db, { lineageId, number: 2, parentVersionId: seed, axis: 'skill', effort: 'low' });
    expect(created).toMatchObject({ state: S.planning, revision: 0 });
  });
});

describe('the lint rule', () => {
  const eslint = new ESLint();
  const messagesFor = async (filePath: string, code: string) =>
    (await eslint.lintText(code, { filePath })).flatMap((result) => result.messages.map((m) => m.message));
  const planted = [
    "import type { Db } from '../db/index.ts';",
    'export async function planted(db: Db, id: string): Promise<void> {',
    "  await db.generation.updateMany({ where: { id }, data: { state: 'approved' } });",
    '  await db.$executeRawUnsafe(`UPDATE "Generation" SET "state" = \'released\' WHERE "id" = \'${id}\'`);',
    '}',
    '',
  ].join('\n');

  it('refuses a generation write, by the client or by SQL, outside the writer', async () => {
    const messages = await messagesFor('lib/review/planted.ts', planted);
    expect(messages).toHaveLength(2);
    for (const message of messages) expect(message).toMatch(/only by lib\/evolution\/generation-writer\.ts/);
  });

  it('lets the writer itself write', async () => {
    expect(await messagesFor('lib/evolution/generation-writer.ts', planted)).toEqual([]);
  });
});
