// The evolve job and the seed funnel, through the real worker loop on a real test database: a
// lineage whose seed the funnel has not kept under its policy is refused — the job completes once,
// not retried, with the verdict and its numbers as its result, and nothing is evolved. The refusal
// is decided before any sandbox is touched, so the Docker sandbox here is never called.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../test/fixtures/db.ts';
import { enqueueEvolution, findOrCreateLineage, lineageSeedFunnelRefusal, recordSeedFunnelOverride } from '../lib/evolution/index.ts';
import { createLogger } from '../lib/log/logger.ts';
import { runWorker } from '../lib/queue/run-worker.ts';
import { DockerSandbox } from '../lib/sandbox/index.ts';
import { DEFAULT_SCHEDULER_CONFIG } from '../lib/scheduler/config.ts';
import { seedEnvironment } from '../test/fixtures/dashboard-rows.ts';
import { waitFor } from '../test/fixtures/wait-for.ts';
import { limitMs, SQLITE_BUSY_MS, UNBUDGETED_STEP_MS } from '../test/budgets.ts';
import { jobHandlers } from './worker-process.ts';

let testDb: TestDb;
const silent = createLogger({ level: 'error', format: 'pretty', write: () => {} });
const SETTINGS = { axisPolicy: { kind: 'round-robin' as const }, effort: 'low' as const, synthesiser: 'procedural' as const, seed: 1 };

beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => {
  await testDb.cleanup();
});

async function trainerGroup(versionId: string, policyVersion: string, passes: number, createdAt: Date) {
  await testDb.db.probeGroup.create({
    data: { versionId, purpose: 'trainer', policy: 'trainer', policyVersion, size: 8, passes, completed: 8, state: 'complete', createdAt },
  });
}

describe('the evolve job of a lineage whose seed the funnel has not kept', () => {
  it('completes refused with the numbers, is not retried, and evolves nothing', async () => {
    const { db } = testDb;
    const seed = await seedEnvironment(db, { name: 'job-funnel-easy' });
    // The trainer's newest checkpoint passes the seed 7 times in 8: too easy to evolve.
    await trainerGroup(seed, 'step-20', 7, new Date('2026-05-02T00:00:00Z'));
    const lineage = await findOrCreateLineage(db, seed, SETTINGS);
    const job = await enqueueEvolution(db, { lineageId: lineage.row.id, generations: 1 });

    const stop = new AbortController();
    const pollMs = 20;
    const worker = runWorker({ db, handlers: jobHandlers(db, new DockerSandbox(), 'funnel-test', silent), signal: stop.signal, pollMs });
    // A poll, the claim, the handler's funnel check (its reads, and the refusal it records), the completion:
    // three writes that may each wait SQLite's busy timeout, and the reads' unbudgeted step.
    const settledMs = limitMs(pollMs, 3 * SQLITE_BUSY_MS, UNBUDGETED_STEP_MS);
    const settled = await waitFor(async () => {
      const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
      return row.state === 'succeeded' || row.state === 'dead' ? row : null;
    }, settledMs);
    stop.abort();
    await worker;

    expect(settled).toMatchObject({ state: 'succeeded', attempts: 1, lastError: null });
    const result = JSON.parse(settled.result!);
    expect(result).toMatchObject({
      lineageId: lineage.row.id,
      validated: 0,
      refused: { code: 'seed_not_kept', verdict: { kind: 'not-kept', passes: 7, size: 8, policyVersion: 'step-20', failed: ['pass-rate'] } },
    });
    expect(result.refused.message).toContain('has not kept job-funnel-easy under trainer checkpoint step-20: 7/8 passes > 4/8 (fails the pass-rate bar)');
    expect(await db.generation.count({ where: { lineageId: lineage.row.id } })).toBe(0);
    expect((await db.lineage.findUniqueOrThrow({ where: { id: lineage.row.id } })).status).toBe('idle');
  });

  it('is admitted once an override is recorded, or once the newest checkpoint keeps the seed', async () => {
    const { db } = testDb;
    const seed = await seedEnvironment(db, { name: 'job-funnel-later' });
    const lineage = await findOrCreateLineage(db, seed, SETTINGS);
    expect((await lineageSeedFunnelRefusal(db, lineage.row.id, DEFAULT_SCHEDULER_CONFIG))?.verdict.kind).toBe('waiting');
    // A newer checkpoint's group keeps it (its first group arrives after every other checkpoint's).
    await trainerGroup(seed, 'step-30', 2, new Date('2026-05-03T00:00:00Z'));
    expect(await lineageSeedFunnelRefusal(db, lineage.row.id, DEFAULT_SCHEDULER_CONFIG)).toBeNull();
    // A still newer checkpoint that has not reported on the seed: the funnel waits for it again…
    const other = await seedEnvironment(db, { name: 'job-funnel-other' });
    await trainerGroup(other, 'step-40', 1, new Date('2026-05-04T00:00:00Z'));
    const waiting = await lineageSeedFunnelRefusal(db, lineage.row.id, DEFAULT_SCHEDULER_CONFIG);
    expect(waiting?.message).toMatch(/no trainer group of its newest checkpoint step-40 on it yet/);
    // …until an override is recorded on the lineage.
    await recordSeedFunnelOverride(db, { id: null, email: 'cli:tester' }, lineage.row.id, {
      reason: 'evolve it for the trainer run',
      verdict: waiting!.verdict,
    });
    expect(await lineageSeedFunnelRefusal(db, lineage.row.id, DEFAULT_SCHEDULER_CONFIG)).toBeNull();
  });
});
