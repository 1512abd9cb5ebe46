// The drift page's memo against a real database: a read with the inputs unchanged does not compute
// again (counted, never timed); a write to an input — through this client, another client (as a
// worker process would), or raw SQL — is seen by the next read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import { createDb, type Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { DEFAULT_ALERT_THRESHOLDS } from './alerts.ts';
import { driftFilterFromSearchParams } from './filters.ts';
import { DRIFT_INPUT_TABLES, tablesWithDriftInputTriggers } from './input-version.ts';
import { driftFunnelCache, driftPageCache, loadDriftFunnel, loadDriftView, loadDriftViewJson } from './load-view.ts';
import { driftWire } from './wire.ts';

let testDb: TestDb;
let db: Db;
let seedId: string;
let lineageId: string;
let g1Version: string;
let g1Id: string;
const all = driftFilterFromSearchParams({});
const day = (d: number) => new Date(Date.UTC(2026, 3, d));

async function group(versionId: string, generationId: string | null, passes: number, turns: number[]) {
  return db.probeGroup.create({
    data: {
      versionId,
      generationId,
      lineageId,
      purpose: 'probe',
      policy: 'simulated',
      policyVersion: '1',
      size: turns.length,
      passes,
      completed: turns.length,
      state: 'complete',
      rollouts: {
        create: turns.map((t, i) => ({
          attempt: i + 1,
          versionId,
          policy: 'simulated',
          policyVersion: '1',
          seed: i,
          status: 'completed',
          passed: i < passes,
          turns: t,
        })),
      },
    },
  });
}

const read = () => loadDriftView(db, all, DEFAULT_ALERT_THRESHOLDS, day(3));
const meanTurnsAt = async (n: number) => (await read()).charts.meanTurns.lines[0]?.points.find((p) => p.x === n)?.y;

/** What `write` does to the number of computations of the next read. */
async function recomputesAfter(write: () => Promise<unknown>): Promise<number> {
  await read();
  const before = driftPageCache.recomputes;
  await write();
  await read();
  return driftPageCache.recomputes - before;
}

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  seedId = await seedEnvironment(db, { name: 'cache-seed' });
  lineageId = (
    await db.lineage.create({
      data: {
        name: 'cached lineage',
        seedVersionId: seedId,
        axisPolicy: '{"kind":"fixed","axis":"length"}',
        effort: 'low',
        synthesiser: 'procedural',
        seed: 1,
        frontier: 1,
        probePolicy: 'simulated',
        createdAt: day(1),
      },
    })
  ).id;
  g1Version = await seedEnvironment(db, { name: 'cache-g1' });
  g1Id = (
    await db.generation.create({
      data: { lineageId, number: 1, parentVersionId: seedId, versionId: g1Version, axis: 'length', effort: 'low', state: 'released', createdAt: day(2) },
    })
  ).id;
  await group(seedId, null, 4, [10, 10, 10, 10, 10, 10, 10, 10]);
  await group(g1Version, g1Id, 2, [20, 20, 20, 20, 20, 20, 20, 20]);
});
afterAll(() => testDb.cleanup());

describe('the drift page memo', () => {
  it('computes once while the inputs are unchanged, whatever the thresholds and the clock', async () => {
    const first = await read();
    const before = driftPageCache.recomputes;
    const again = await read();
    expect(again).toEqual(first);
    // The alerts follow the clock and the thresholds without a computation: 40 days after its
    // release (this test's), the lineage has stalled.
    const later = await loadDriftView(db, all, { ...DEFAULT_ALERT_THRESHOLDS, stalledDays: 30 }, new Date(Date.now() + 40 * 86_400_000));
    expect(later.alerts.map((a) => a.kind)).toContain('stalled');
    expect(first.alerts.map((a) => a.kind)).not.toContain('stalled');
    expect(driftPageCache.recomputes).toBe(before);
  });

  it('keeps each filter apart', async () => {
    const byTime = driftFilterFromSearchParams({ x: 'time' });
    await loadDriftView(db, byTime, DEFAULT_ALERT_THRESHOLDS);
    const before = driftPageCache.recomputes;
    await loadDriftView(db, byTime, DEFAULT_ALERT_THRESHOLDS);
    await read();
    expect(driftPageCache.recomputes).toBe(before);
  });

  it('sees a new rollout in a group, a new group, a new generation and a changed version at the next read', async () => {
    expect(await meanTurnsAt(1)).toBe(20);
    const g1Group = await db.probeGroup.findFirstOrThrow({ where: { generationId: g1Id } });
    await db.rollout.create({
      data: { groupId: g1Group.id, attempt: 9, versionId: g1Version, policy: 'simulated', policyVersion: '1', seed: 9, status: 'completed', turns: 29 },
    });
    expect(await meanTurnsAt(1)).toBe(21);

    await group(g1Version, g1Id, 8, [5, 5, 5, 5, 5, 5, 5, 5]);
    expect((await read()).lineages[0]?.latestProbe).toEqual({ number: 1, passes: 8, size: 8, policyVersion: '1' });

    const g2Version = await seedEnvironment(db, { name: 'cache-g2' });
    await db.generation.create({
      data: { lineageId, number: 2, parentVersionId: g1Version, versionId: g2Version, axis: 'length', effort: 'low', state: 'approved', createdAt: day(3) },
    });
    expect((await read()).lineages[0]?.generations).toBe(2);

    await db.environmentVersion.update({ where: { id: g2Version }, data: { difficultyLength: 7, difficultyScenario: 1, difficultySkill: 1 } });
    expect((await read()).charts.difficultyTotal.lines[0]?.points.find((p) => p.x === 2)?.y).toBe(9);
  });

  it('sees the writes of another client (another process) and of raw SQL', async () => {
    const worker = createDb(testDb.url);
    try {
      await worker.lineage.update({ where: { id: lineageId }, data: { name: 'renamed by the worker' } });
      expect((await read()).lineages[0]?.name).toBe('renamed by the worker');
    } finally {
      await worker.$disconnect();
    }
    await db.$executeRawUnsafe(`UPDATE "Lineage" SET "name" = 'renamed by SQL' WHERE "id" = '${lineageId}'`);
    expect((await read()).lineages[0]?.name).toBe('renamed by SQL');
  });

  it('computes again after a write to a drift input, not after writes elsewhere', async () => {
    expect(
      await recomputesAfter(() =>
        db.planRound.create({ data: { generationId: g1Id, round: 1, plan: '{}', approved: false, review: '{}', rubricVersion: 'r1' } }),
      ),
    ).toBe(1);
    expect(await recomputesAfter(() => db.attempt.create({ data: { generationId: g1Id, number: 1, state: 'invalid' } }))).toBe(1);
    expect(
      await recomputesAfter(() =>
        db.auditEvent.create({ data: { actorEmail: 'lead@example.test', action: 'lineage.gate', subjectType: 'lineage', subjectId: lineageId } }),
      ),
    ).toBe(1);
    // A trainer's rollout outside any group, another audit action, a job: not drift inputs.
    expect(
      await recomputesAfter(() =>
        db.rollout.create({ data: { attempt: 1, versionId: g1Version, policy: 'trainer', policyVersion: 'step-1', seed: 1, status: 'completed', turns: 3 } }),
      ),
    ).toBe(0);
    expect(
      await recomputesAfter(() =>
        db.auditEvent.create({ data: { actorEmail: 'lead@example.test', action: 'generation.approve', subjectType: 'generation', subjectId: g1Id } }),
      ),
    ).toBe(0);
    expect(await recomputesAfter(() => db.job.create({ data: { kind: 'validate', payload: '{}', state: 'queued' } }))).toBe(0);
  });

  it('answers the route the same page as JSON in the wire form, serialised again only when the alerts change', async () => {
    const { alerts, ...page } = await loadDriftView(db, all, DEFAULT_ALERT_THRESHOLDS, day(45));
    const served = await loadDriftViewJson(db, all, DEFAULT_ALERT_THRESHOLDS, day(45));
    expect(JSON.parse(served.json)).toEqual(JSON.parse(JSON.stringify({ ...driftWire(page), alerts })));
    expect(await loadDriftViewJson(db, all, DEFAULT_ALERT_THRESHOLDS, day(45))).toBe(served);
    const stalled = await loadDriftViewJson(db, all, { ...DEFAULT_ALERT_THRESHOLDS, stalledDays: 30 }, new Date(Date.now() + 40 * 86_400_000));
    expect(stalled).not.toBe(served);
    expect((JSON.parse(stalled.json) as { alerts: { kind: string }[] }).alerts.map((a) => a.kind)).toContain('stalled');
  });

  it('memoises the funnel of the stored probes until a probe changes, and shows a stored filter run instead', async () => {
    const kept = async () => (await loadDriftFunnel(db)).funnel.stages.at(-1)?.count;
    const before = await loadDriftFunnel(db);
    expect(before.run).toBeNull();
    const computed = driftFunnelCache.recomputes;
    expect(await loadDriftFunnel(db)).toEqual(before);
    expect(driftFunnelCache.recomputes).toBe(computed);
    // A long, partly solved probe of a new imported version: one more seed kept, seen at the next read.
    const keptBefore = await kept();
    await group(await seedEnvironment(db, { name: 'cache-long-seed' }), null, 2, [40, 40, 40, 40, 40, 40, 40, 40]);
    expect(await kept()).toBe(keptBefore! + 1);
    expect(driftFunnelCache.recomputes).toBe(computed + 1);
    await db.seedFilterRun.create({ data: { policy: 'simulated', maxPasses: 4, probeSize: 8, minTurns: 30, candidates: 0, kept: 0, result: '[]' } });
    const stored = await loadDriftFunnel(db);
    expect(stored.run?.policy).toBe('simulated');
    expect(stored.funnel.decisions).toEqual([]);
  });

  it('has the triggers of every drift input table (a migration that redefines one must create them again)', async () => {
    expect(await tablesWithDriftInputTriggers(db, testDb.provider)).toEqual([...DRIFT_INPUT_TABLES]);
  });
});
