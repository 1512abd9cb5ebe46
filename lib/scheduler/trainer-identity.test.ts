// A trainer's reports: who may report under which policy, exactly-once reports under an
// Idempotency-Key (also when two requests with one key race), and only reviewed versions served.
import { describe, expect } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import { fileDbTest } from '../../test/fixtures/test.ts';
import { createApiToken, verifyApiToken } from '../auth/api-tokens.ts';
import { createUser } from '../auth/users.ts';
import type { Db } from '../db/client.ts';
import { ConflictError, ForbiddenError } from '../errors/index.ts';
import { GenerationState } from '../states/index.ts';
import { sweepExpiredIdempotencyKeys } from './idempotency.ts';
import { schedulerConfigFrom } from './config.ts';
import { reportTrainerGroup, trainerReporterOf, trainerReportSchema, type TrainerReporter } from './report.ts';
import { unservableReason } from './servable.ts';
import { servedTaskTarball } from './task-download.ts';

const config = schedulerConfigFrom({});
const HOUR_MS = 3_600_000;
let lineages = 0;

async function lineageWith(db: Db, states: string[]) {
  const n = ++lineages;
  const seed = await seedEnvironment(db, { name: `identity seed ${n}` });
  const lineage = await db.lineage.create({
    data: { name: `identity lineage ${n}`, seedVersionId: seed, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1 },
  });
  const versions: string[] = [];
  let parent = seed;
  for (const [i, state] of states.entries()) {
    const versionId = await seedEnvironment(db, { name: `identity seed ${n} g${i + 1}` });
    await db.generation.create({ data: { lineageId: lineage.id, number: i + 1, parentVersionId: parent, versionId, axis: 'length', effort: 'low', state } });
    versions.push(versionId);
    parent = versionId;
  }
  return { lineage, seed, versions };
}

// A trainer account and a token of it naming `policies`, as the route sees the caller.
async function trainerToken(db: Db, email: string, policies?: string): Promise<TrainerReporter> {
  const user = await createUser(db, { email, name: email, role: 'trainer', password: 'correct horse battery staple' });
  const { token } = await createApiToken(db, user.id, 'test token', policies);
  const verified = await verifyApiToken(db, token);
  return trainerReporterOf(verified!);
}

const body = (versionId: string, rewards: (number | null)[], extra: Record<string, unknown> = {}) =>
  trainerReportSchema.parse({ versionId, rewards, policyVersion: 'step-1', ...extra });

describe('who may report under which policy', () => {
  fileDbTest('refuses anthropic, openai, simulated, oracle and nop groups from a trainer token with 403 and the reason, storing nothing', async ({ db }) => {
    const reporter = await trainerToken(db, 'runs@identity.test', 'trainer,anthropic-finetune');
    const { seed } = await lineageWith(db, []);
    for (const policy of ['anthropic', 'openai', 'simulated', 'oracle', 'nop']) {
      const refused = reportTrainerGroup(db, body(seed, [1, 1, 1, 1, 1, 1, 1, 0], { policy }), config, reporter, { idempotencyTtlMs: HOUR_MS });
      await expect(refused).rejects.toBeInstanceOf(ForbiddenError);
      await expect(refused).rejects.toMatchObject({
        code: 'policy_run_by_envolve',
        message: expect.stringContaining(`policy ${policy} is run by Envolve itself`),
      });
    }
    expect(await db.probeGroup.count({ where: { versionId: seed } })).toBe(0);
  });

  fileDbTest('a token limited to trainer cannot report trainer-b; a token naming trainer-b can, and the group records token and user', async ({ db }) => {
    const { seed } = await lineageWith(db, []);
    const plain = await trainerToken(db, 'plain@identity.test');
    expect(plain.policies).toEqual(['trainer']);
    const refused = reportTrainerGroup(db, body(seed, [1, 0], { policy: 'trainer-b' }), config, plain, { idempotencyTtlMs: HOUR_MS });
    await expect(refused).rejects.toMatchObject({ code: 'policy_not_allowed', message: expect.stringContaining('may report for trainer only, not trainer-b') });

    const both = await trainerToken(db, 'both@identity.test', 'trainer, trainer-b');
    const { result } = await reportTrainerGroup(db, body(seed, [1, 0], { policy: 'trainer-b' }), config, both, { idempotencyTtlMs: HOUR_MS });
    expect(result.reportedBy).toEqual({ userId: both.userId, email: 'both@identity.test', tokenId: both.tokenId });
    expect(await db.probeGroup.findUniqueOrThrow({ where: { id: result.groupId } })).toMatchObject({
      policy: 'trainer-b',
      tokenId: both.tokenId,
      userId: both.userId,
    });
  });

  fileDbTest('refuses a token policy name that is no plain word', async ({ db }) => {
    const user = await createUser(db, { email: 'names@identity.test', name: 'n', role: 'trainer', password: 'correct horse battery staple' });
    await expect(createApiToken(db, user.id, 'bad', 'trainer,a b')).rejects.toThrow(/policy name "a b"/);
  });
});

describe('exactly once under an Idempotency-Key', () => {
  fileDbTest('the same key and body answer the first group again; the same key with another body is 409', async ({ db }) => {
    const reporter = await trainerToken(db, 'once@identity.test');
    const { seed } = await lineageWith(db, []);
    const options = { idempotencyKey: 'run-1/group-1', idempotencyTtlMs: HOUR_MS };
    const first = await reportTrainerGroup(db, body(seed, [1, 0, null]), config, reporter, options);
    // Key order and defaults do not make another body.
    const again = await reportTrainerGroup(
      db,
      trainerReportSchema.parse({ policyVersion: 'step-1', rewards: [1, 0, null], versionId: seed, policy: 'trainer' }),
      config,
      reporter,
      options,
    );
    expect(first.replayed).toBe(false);
    expect(again).toEqual({ replayed: true, result: first.result });
    const other = reportTrainerGroup(db, body(seed, [1, 1, null]), config, reporter, options);
    await expect(other).rejects.toBeInstanceOf(ConflictError);
    await expect(other).rejects.toMatchObject({ code: 'idempotency_key_reused' });
    expect(await db.probeGroup.count({ where: { versionId: seed } })).toBe(1);

    // Keys are the token's: another token's same key is another group.
    const otherToken = await trainerToken(db, 'once-b@identity.test');
    const theirs = await reportTrainerGroup(db, body(seed, [1, 0, null]), config, otherToken, options);
    expect(theirs.result.groupId).not.toBe(first.result.groupId);
  });

  fileDbTest('twenty simultaneous requests with one key store one group and all answer it', async ({ db }) => {
    const reporter = await trainerToken(db, 'race@identity.test');
    const { seed } = await lineageWith(db, ['approved']);
    const options = { idempotencyKey: 'raced-key', idempotencyTtlMs: HOUR_MS };
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => reportTrainerGroup(db, body(seed, [1, 1, 1, 1, 1, 1, 1, 0]), config, reporter, options)),
    );
    expect(await db.probeGroup.count({ where: { versionId: seed } })).toBe(1);
    expect(new Set(outcomes.map((o) => o.result.groupId)).size).toBe(1);
    expect(outcomes.filter((o) => !o.replayed)).toHaveLength(1);
    // The group released G1 once: one release audit, however many answers.
    expect(await db.auditEvent.count({ where: { action: 'generation.release', after: { contains: outcomes[0]!.result.groupId } } })).toBe(1);
  });

  fileDbTest('an expired key stores a new group and the sweep deletes expired keys only', async ({ db }) => {
    const reporter = await trainerToken(db, 'expiry@identity.test');
    const { seed } = await lineageWith(db, []);
    const t0 = new Date('2026-06-01T00:00:00Z');
    const first = await reportTrainerGroup(db, body(seed, [1]), config, reporter, { idempotencyKey: 'k', idempotencyTtlMs: HOUR_MS, now: t0 });
    const later = new Date(t0.getTime() + 2 * HOUR_MS);
    const second = await reportTrainerGroup(db, body(seed, [1]), config, reporter, { idempotencyKey: 'k', idempotencyTtlMs: HOUR_MS, now: later });
    expect(second.replayed).toBe(false);
    expect(second.result.groupId).not.toBe(first.result.groupId);
    await reportTrainerGroup(db, body(seed, [0]), config, reporter, { idempotencyKey: 'k2', idempotencyTtlMs: HOUR_MS, now: t0 });
    expect(await sweepExpiredIdempotencyKeys(db, new Date(later.getTime() + 1))).toBe(1); // k2 expired; k (renewed at `later`) lives on
    expect((await db.idempotencyKey.findMany({ where: { scope: `token:${reporter.tokenId}` } })).map((k) => k.key)).toEqual(['k']);
  });
});

describe('only reviewed work goes to training', () => {
  fileDbTest(
    'an awaiting-review version is 409 on download and on report, with its state; approved and released versions and the seed are served',
    async ({ db }) => {
      const reporter = await trainerToken(db, 'review@identity.test');
      const { seed, versions } = await lineageWith(db, [GenerationState.released, GenerationState.approved, GenerationState.awaitingReview]);
      const [released, approved, awaiting] = versions as [string, string, string];
      const download = servedTaskTarball(db, awaiting);
      await expect(download).rejects.toBeInstanceOf(ConflictError);
      await expect(download).rejects.toMatchObject({
        code: 'unreviewed',
        details: { state: 'awaiting-review' },
        message: expect.stringContaining('(state: awaiting-review)'),
      });
      const report = reportTrainerGroup(db, body(awaiting, [1, 0]), config, reporter, { idempotencyTtlMs: HOUR_MS });
      await expect(report).rejects.toBeInstanceOf(ConflictError);
      await expect(report).rejects.toMatchObject({ code: 'unreviewed', details: { state: 'awaiting-review' } });
      expect(await db.probeGroup.count({ where: { versionId: awaiting } })).toBe(0);
      for (const versionId of [seed, released, approved]) {
        expect(await unservableReason(db, versionId)).toBeNull(); // the download's rule (these rows hold no real task to pack)
        await reportTrainerGroup(db, body(versionId, [1, 0]), config, reporter, { idempotencyTtlMs: HOUR_MS });
      }
    },
  );

  fileDbTest('rejected, superseded and changes-requested versions are 409 naming their state', async ({ db }) => {
    const reporter = await trainerToken(db, 'states@identity.test');
    const { versions } = await lineageWith(db, [GenerationState.rejected, GenerationState.superseded, GenerationState.changesRequested]);
    for (const [versionId, state] of versions.map((v, i) => [v, ['rejected', 'superseded', 'changes-requested'][i]!] as const)) {
      await expect(servedTaskTarball(db, versionId)).rejects.toMatchObject({ details: { state }, message: expect.stringContaining(`(state: ${state})`) });
      await expect(reportTrainerGroup(db, body(versionId, [1]), config, reporter, { idempotencyTtlMs: HOUR_MS })).rejects.toBeInstanceOf(ConflictError);
    }
  });
});
