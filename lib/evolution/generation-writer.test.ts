// The one writer of generation states, against a real database (SQLite here, PostgreSQL with
// ENVOLVE_TEST_DATABASE=postgresql): a change bumps the revision and is audited in the caller's
// transaction, a stale reader or a move the machine does not allow changes nothing, and the lint
// rule refuses a generation write anywhere else.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { seedGenerationInState, type LineageFixture } from '../../test/fixtures/lineage-rows.ts';
import { lineageTest } from '../../test/fixtures/test.ts';
import type { Db } from '../db/client.ts';
import { changeGenerationState, createGeneration, StaleGenerationError, type StateChange } from './generation-writer.ts';
import { GenerationState as S, IllegalTransitionError, type GenerationState } from '../states/states.ts';

const ACTOR = { id: null, email: 'writer-test@envolve' };

const seeded = ({ db, lineage }: { db: Db; lineage: LineageFixture }, state: GenerationState, revision = 3) =>
  seedGenerationInState(db, lineage, { state, revision });

const change = (to: GenerationState, extra: Partial<StateChange> = {}): StateChange => ({
  to,
  audit: { actor: ACTOR, action: 'generation.test', after: { reason: 'because' } },
  ...extra,
});
const auditsOf = (db: Db, id: string) => db.auditEvent.findMany({ where: { subjectId: id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });

describe('changeGenerationState', () => {
  lineageTest('moves the state with its data, bumps the revision and audits the move', async ({ db, lineage }) => {
    const g = await seeded({ db, lineage }, S.approved);
    const moved = await db.$transaction((tx) =>
      changeGenerationState(tx, g, change(S.released, { data: { releasedByPolicy: 'simulated', releaseRule: '{}' } })),
    );
    expect(moved).toMatchObject({ state: S.released, revision: 4, releasedByPolicy: 'simulated', releaseRule: '{}' });
    const [audit, ...more] = await auditsOf(db, g.id);
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ action: 'generation.test', actorEmail: ACTOR.email, subjectType: 'generation' });
    expect(JSON.parse(audit!.before!)).toEqual({ state: S.approved, revision: 3, versionId: g.versionId });
    expect(JSON.parse(audit!.after!)).toEqual({ state: S.released, revision: 4, versionId: g.versionId, reason: 'because' });
  });

  lineageTest('refuses a reader holding an older revision, and changes nothing', async ({ db, lineage }) => {
    const g = await seeded({ db, lineage }, S.awaitingReview);
    const stale = { ...g, revision: g.revision - 1 };
    const refused = await db.$transaction((tx) => changeGenerationState(tx, stale, change(S.approved))).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(StaleGenerationError);
    expect(refused).toMatchObject({ code: 'stale_generation', current: { state: S.awaitingReview, revision: 3 } });
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: S.awaitingReview, revision: 3 });
    expect(await auditsOf(db, g.id)).toEqual([]);
  });

  lineageTest('refuses a reader who saw another state at the same revision', async ({ db, lineage }) => {
    const g = await seeded({ db, lineage }, S.approved);
    await expect(db.$transaction((tx) => changeGenerationState(tx, { ...g, state: S.awaitingReview }, change(S.rejected)))).rejects.toThrow(
      StaleGenerationError,
    );
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: S.approved, revision: 3 });
  });

  lineageTest('refuses a move the state machine does not allow, and changes nothing', async ({ db, lineage }) => {
    const g = await seeded({ db, lineage }, S.rejected);
    await expect(db.$transaction((tx) => changeGenerationState(tx, g, change(S.released)))).rejects.toThrow(IllegalTransitionError);
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: S.rejected, revision: 3 });
    expect(await auditsOf(db, g.id)).toEqual([]);
  });

  lineageTest('commits the move and its audit row together: a later failure in the transaction rolls both back', async ({ db, lineage }) => {
    const g = await seeded({ db, lineage }, S.awaitingReview);
    const later = new Error('the step after the move failed');
    await expect(
      db.$transaction(async (tx) => {
        await changeGenerationState(tx, g, change(S.approved));
        throw later;
      }),
    ).rejects.toBe(later);
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: S.awaitingReview, revision: 3 });
    expect(await auditsOf(db, g.id)).toEqual([]);
  });

  lineageTest('records what the move brought about in the same audit row', async ({ db, lineage }) => {
    const g = await seeded({ db, lineage }, S.awaitingReview);
    await db.$transaction((tx) =>
      changeGenerationState(tx, g, {
        to: S.rejected,
        audit: { actor: ACTOR, action: 'generation.reject', effects: async (_tx, moved) => ({ sawRevision: moved.revision }) },
      }),
    );
    const [audit] = await auditsOf(db, g.id);
    expect(JSON.parse(audit!.after!)).toMatchObject({ state: S.rejected, revision: 4, sawRevision: 4 });
  });

  lineageTest('restores an earlier revision for an undo, and never a later or the same one', async ({ db, lineage }) => {
    const g = await seeded({ db, lineage }, S.approved, 5);
    const back = await db.$transaction((tx) => changeGenerationState(tx, g, change(S.awaitingReview, { restoreRevision: 4 })));
    expect(back).toMatchObject({ state: S.awaitingReview, revision: 4 });
    const again = await seeded({ db, lineage }, S.approved, 5);
    await expect(db.$transaction((tx) => changeGenerationState(tx, again, change(S.awaitingReview, { restoreRevision: 5 })))).rejects.toThrow(
      /cannot restore revision 5/,
    );
    expect(await db.generation.findUniqueOrThrow({ where: { id: again.id } })).toMatchObject({ state: S.approved, revision: 5 });
  });
});

describe('createGeneration', () => {
  lineageTest('starts a generation in the initial state at revision 0', async ({ db, lineage }) => {
    const created = await createGeneration(db, {
      lineageId: lineage.lineageId,
      number: 2,
      parentVersionId: lineage.seedVersionId,
      axis: 'skill',
      effort: 'low',
    });
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
