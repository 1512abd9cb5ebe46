// The funnel's verdict on one seed, read from stored groups: a probed policy's latest probe of the
// seed (its reach over every candidate decides whether it can decide at all), a trainer's newest
// checkpoint's group, and the thresholds of the newest stored filter run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { DEFAULT_SEED_FILTER } from '../gate/funnel.ts';
import { seedFilterThresholdsInForce, seedFunnelVerdict } from '../gate/seed-filter.ts';

let testDb: TestDb;
let db: Db;
let probedSeed: string; // probed by anthropic: 3/4 passes, 36 mean turns

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
});
afterAll(async () => testDb.cleanup());

async function probe(versionId: string, policy: string, passes: number, turns: number[], createdAt?: Date) {
  const group = await db.probeGroup.create({
    data: {
      versionId,
      purpose: 'probe',
      policy,
      policyVersion: `${policy}-1`,
      size: turns.length,
      passes,
      completed: turns.length,
      state: 'complete',
      createdAt,
    },
  });
  await db.rollout.createMany({
    data: turns.map((t, i) => ({
      groupId: group.id,
      attempt: i + 1,
      versionId,
      policy,
      policyVersion: `${policy}-1`,
      seed: i,
      status: 'completed',
      passed: i < passes,
      reward: i < passes ? 1 : 0,
      turns: t,
    })),
  });
}

describe("the seed funnel's verdict from stored groups", () => {
  it("decides a probed seed by the policy's latest probe of it, and waits for one it never probed", async () => {
    const seed = (probedSeed = await seedEnvironment(db, { name: 'verdict-probed' }));
    await probe(seed, 'anthropic', 1, [40, 40, 40, 40], new Date('2026-05-01T00:00:00Z'));
    await probe(seed, 'anthropic', 3, [36, 36, 36, 36], new Date('2026-05-02T00:00:00Z'));
    expect(await seedFunnelVerdict(db, seed, 'anthropic')).toMatchObject({
      kind: 'not-kept',
      passes: 3,
      size: 4,
      meanTurns: 36,
      failed: ['pass-rate'],
      policyVersion: 'anthropic-1',
    });
    expect((await seedFunnelVerdict(db, seed, 'openai')).kind).toBe('waiting');
  });

  it('cannot decide with the simulated policy when none of its probes comes near the turn bar', async () => {
    const seed = await seedEnvironment(db, { name: 'verdict-simulated' });
    await probe(seed, 'simulated', 1, [4, 5, 6, 5]);
    const verdict = await seedFunnelVerdict(db, seed, 'simulated');
    expect(verdict).toMatchObject({ kind: 'undecidable', passes: 1, size: 4 });
    expect(verdict.message).toContain('cannot decide with this policy: its probes made at most');
  });

  it("waits for the trainer's newest checkpoint, then decides by its group", async () => {
    const seed = await seedEnvironment(db, { name: 'verdict-trainer' });
    const group = (versionId: string, policyVersion: string, passes: number, createdAt: Date) =>
      db.probeGroup.create({
        data: { versionId, purpose: 'trainer', policy: 'trainer', policyVersion, size: 8, passes, completed: 8, state: 'complete', createdAt },
      });
    expect((await seedFunnelVerdict(db, seed, 'trainer')).message).toMatch(/no trainer group has been reported yet/);
    await group(seed, 'ckpt-a', 1, new Date('2026-05-01T00:00:00Z'));
    await group(await seedEnvironment(db, { name: 'verdict-other' }), 'ckpt-b', 8, new Date('2026-05-02T00:00:00Z'));
    expect(await seedFunnelVerdict(db, seed, 'trainer')).toMatchObject({ kind: 'waiting', passes: null });
    // A straggling group of the older checkpoint does not make it newest.
    await group(seed, 'ckpt-a', 0, new Date('2026-05-03T00:00:00Z'));
    expect((await seedFunnelVerdict(db, seed, 'trainer')).kind).toBe('waiting');
    await group(seed, 'ckpt-b', 4, new Date('2026-05-04T00:00:00Z'));
    expect(await seedFunnelVerdict(db, seed, 'trainer')).toMatchObject({ kind: 'kept', passes: 4, size: 8, policyVersion: 'ckpt-b', turnsChecked: false });
  });

  it('decides by the thresholds of the newest stored filter run, the paper’s before any', async () => {
    expect(await seedFilterThresholdsInForce(db)).toEqual(DEFAULT_SEED_FILTER);
    await db.seedFilterRun.create({ data: { policy: 'anthropic', maxPasses: 3, probeSize: 4, minTurns: 35, candidates: 0, kept: 0, result: '[]' } });
    expect(await seedFilterThresholdsInForce(db)).toEqual({ maxPasses: 3, probeSize: 4, minTurns: 35 });
    // 3/4 passes, 36 mean turns: not kept at 4/8, kept at 3/4 and 35 turns.
    expect(await seedFunnelVerdict(db, probedSeed, 'anthropic')).toMatchObject({ kind: 'kept', passes: 3, size: 4 });
  });
});
