import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { loadCheckpointPassRates } from './checkpoints.ts';
import { DEFAULT_SEED_FILTER } from '../gate/funnel.ts';
import { loadDrift } from './load.ts';
import { prometheusText } from './metrics-load.ts';
import { latestSeedFilterRun, loadFunnelCandidates, runSeedFilter } from '../gate/seed-filter.ts';

let testDb: TestDb;
let db: Db;
let seedId: string;
let lineageId: string;
const day = (d: number) => new Date(Date.UTC(2026, 3, d));

async function probe(versionId: string, generationId: string | null, passes: number, turns: number[], tokens?: [number, number]) {
  const group = await db.probeGroup.create({
    data: {
      versionId,
      generationId,
      lineageId: generationId ? lineageId : null,
      purpose: 'probe',
      policy: 'simulated',
      policyVersion: '1',
      size: turns.length,
      passes,
      completed: turns.length,
      state: 'complete',
    },
  });
  await db.rollout.createMany({
    data: turns.map((t, i) => ({
      groupId: group.id,
      attempt: i + 1,
      versionId,
      policy: 'simulated',
      policyVersion: '1',
      seed: i,
      status: 'completed',
      passed: i < passes,
      reward: i < passes ? 1 : 0,
      turns: t,
      promptTokens: tokens && i === 0 ? tokens[0] : null,
      completionTokens: tokens && i === 0 ? tokens[1] : null,
    })),
  });
  return group.id;
}

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  seedId = await seedEnvironment(db, { name: 'drift-seed' });
  await db.environmentVersion.update({ where: { id: seedId }, data: { difficultyLength: 2, difficultyScenario: 3, difficultySkill: 4 } });
  const lineage = await db.lineage.create({
    data: {
      name: 'drift lineage',
      seedVersionId: seedId,
      axisPolicy: '{"kind":"fixed","axis":"length"}',
      effort: 'low',
      synthesiser: 'procedural',
      seed: 1,
      frontier: 1,
      createdAt: day(1),
    },
  });
  lineageId = lineage.id;
  const g1Version = await seedEnvironment(db, { name: 'drift-g1' });
  await db.environmentVersion.update({
    where: { id: g1Version },
    data: { source: 'evolution', difficultyLength: 3, difficultyScenario: 3, difficultySkill: 4 },
  });
  const g1 = await db.generation.create({
    data: { lineageId, number: 1, parentVersionId: seedId, versionId: g1Version, axis: 'length', effort: 'low', state: 'released', createdAt: day(2) },
  });
  await db.planRound.createMany({
    data: [1, 2].map((round) => ({ generationId: g1.id, round, plan: '{}', approved: round === 2, review: '{}', rubricVersion: 'r1' })),
  });
  await db.attempt.createMany({
    data: [
      { generationId: g1.id, number: 1, state: 'invalid' },
      { generationId: g1.id, number: 2, state: 'error' },
      { generationId: g1.id, number: 3, state: 'valid', candidateVersionId: g1Version },
    ],
  });
  await probe(seedId, null, 3, [30, 34, 26, 30, 30, 30, 30, 30]);
  await probe(g1Version, g1.id, 6, [40, 40, 40, 40, 40, 40, 40, 40], [9000, 1000]);
  // An unfinished probe is not read.
  await db.probeGroup.create({
    data: { versionId: g1Version, generationId: g1.id, purpose: 'probe', policy: 'simulated', policyVersion: '1', size: 8, passes: 0, state: 'running' },
  });
  await db.job.createMany({
    data: [
      { kind: 'validate', payload: '{}', state: 'queued' },
      { kind: 'validate', payload: '{}', state: 'succeeded', createdAt: new Date(Date.now() - 30_000), finishedAt: new Date() },
    ],
  });
});
afterAll(() => testDb.cleanup());

describe('loadDrift', () => {
  it('reads pass rates of one policy only: the one asked for, else the lineage probe policy', async () => {
    const oracle = await loadDrift(db, { policy: 'oracle', defaultPolicy: 'simulated' });
    expect(oracle.lineages[0]?.passRatePolicy).toBe('oracle');
    expect(oracle.points.every((p) => p.probe === null)).toBe(true);
    const byDefault = await loadDrift(db, { defaultPolicy: 'oracle' });
    expect(byDefault.points.every((p) => p.probe === null)).toBe(true);
    await db.lineage.update({ where: { id: lineageId }, data: { probePolicy: 'simulated' } });
    const own = await loadDrift(db, { defaultPolicy: 'oracle' });
    expect(own.lineages[0]?.passRatePolicy).toBe('simulated');
    expect(own.points.some((p) => p.probe !== null)).toBe(true);
    await db.lineage.update({ where: { id: lineageId }, data: { probePolicy: null } });
  });

  it('reads each position with its difficulty, probe, turns, tokens, rejections and rounds', async () => {
    const drift = await loadDrift(db, { defaultPolicy: 'simulated' });
    expect(drift.lineages).toEqual([expect.objectContaining({ id: lineageId, seedName: 'drift-seed', axisPolicy: 'length', frontier: 1 })]);
    expect(drift.lineages[0]?.lastReleasedAt).toBeInstanceOf(Date);
    const [seed, g1] = [...drift.points].sort((a, b) => a.number - b.number);
    expect(seed?.values).toMatchObject({ difficultyTotal: 9, passRate: 0.375, meanTurns: 30, tokensPerTurn: null });
    expect(g1).toMatchObject({ axis: 'length', state: 'released', probe: { passes: 6, size: 8 } });
    expect(g1?.values).toMatchObject({
      difficultyTotal: 10,
      passRate: 0.75,
      meanTurns: 40,
      tokensPerTurn: 250,
      rejectionRate: 0.5,
      planRounds: 2,
      modifyRounds: 3,
    });
  });

  it('renders the Prometheus text from the database', async () => {
    const text = await prometheusText(db, { heldOut: true });
    expect(text).toContain(`envolve_lineage_frontier{lineage_id="${lineageId}",lineage="drift lineage"} 1`);
    expect(text).toContain(`envolve_lineage_frontier_difficulty{lineage_id="${lineageId}",lineage="drift lineage",component="total"} 10`);
    expect(text).toContain('envolve_jobs{kind="validate",state="queued"} 1');
    expect(text).toMatch(/envolve_job_turnaround_seconds_bucket\{kind="validate",le="60"\} 1\n/);
    expect(text).toContain('envolve_sandbox_failures_total{source="rollout"} 0');
  });

  it('leaves held-out lineages out of the Prometheus text for callers who may not see them', async () => {
    await db.lineage.update({ where: { id: lineageId }, data: { heldOutSet: 'drift-eval' } });
    try {
      expect(await prometheusText(db, { heldOut: true })).toContain(`lineage_id="${lineageId}"`);
      const text = await prometheusText(db, { heldOut: false });
      expect(text).not.toContain(lineageId);
      expect(text).toContain('envolve_jobs{kind="validate",state="queued"} 1');
    } finally {
      await db.lineage.update({ where: { id: lineageId }, data: { heldOutSet: null } });
    }
  });
});

describe('the seed filter', () => {
  it('probes the imported candidates that lack a probe, decides, and stores the run', async () => {
    const fresh = await seedEnvironment(db, { name: 'drift-unprobed' });
    expect((await loadFunnelCandidates(db, { policy: 'simulated' })).map((c) => [c.name, c.probe?.passes ?? null])).toEqual(
      expect.arrayContaining([
        ['drift-seed', 3],
        ['drift-unprobed', null],
      ]),
    );
    const probed: string[] = [];
    const run = await runSeedFilter(db, {
      policy: 'simulated',
      thresholds: { ...DEFAULT_SEED_FILTER, minTurns: 35 },
      probe: async (versionId) => {
        probed.push(versionId);
        await probe(versionId, null, 1, [50, 50, 50, 50]);
      },
    });
    expect(probed).toEqual([fresh]);
    expect(run.probedNow).toEqual([fresh]);
    // The seed has 30 mean turns: the raised turn threshold removes it.
    expect(run.funnel.decisions.map((d) => [d.name, d.kept, d.removedBy])).toEqual([
      ['drift-seed', false, ['turns']],
      ['drift-unprobed', true, []],
    ]);
    const latest = await latestSeedFilterRun(db);
    expect(latest).toMatchObject({ id: run.id, policy: 'simulated', funnel: { thresholds: { maxPasses: 4, probeSize: 8, minTurns: 35 } } });
    expect(latest?.funnel.stages.map((s) => s.count)).toEqual([2, 2, 2, 1]);
    await expect(loadFunnelCandidates(db, { policy: 'simulated', versionIds: ['0'.repeat(64)] })).rejects.toThrow(/unknown environment version/);
  });
});

describe('pass rates of a trainer policy, by checkpoint', () => {
  it("reads the trainer's groups as the lineage's pass rates, labels each with its checkpoint, and pools each checkpoint", async () => {
    const seed = await seedEnvironment(db, { name: 'checkpoint-seed' });
    const lineage = await db.lineage.create({
      data: {
        name: 'checkpoint lineage',
        seedVersionId: seed,
        axisPolicy: '{"kind":"round-robin"}',
        effort: 'low',
        synthesiser: 'procedural',
        seed: 1,
        probePolicy: 'trainer-ckpt',
        frontier: 0,
      },
    });
    const group = (policyVersion: string, passes: number, createdAt: Date) =>
      db.probeGroup.create({
        data: { versionId: seed, purpose: 'trainer', policy: 'trainer-ckpt', policyVersion, size: 8, passes, completed: 8, state: 'complete', createdAt },
      });
    await group('step-10', 2, day(5));
    await group('step-10', 4, day(6));
    await group('step-20', 7, day(7));
    const drift = await loadDrift(db, { defaultPolicy: 'simulated' });
    expect(drift.points.find((p) => p.lineageId === lineage.id)).toMatchObject({ probe: { passes: 7, size: 8, policyVersion: 'step-20' } });
    expect(await loadCheckpointPassRates(db, ['trainer-ckpt'])).toEqual([
      {
        policy: 'trainer-ckpt',
        policyVersion: 'step-10',
        firstReportedAt: day(5).toISOString(),
        newest: false,
        groups: 2,
        environments: 1,
        passes: 6,
        rollouts: 16,
        passRate: 0.375,
      },
      {
        policy: 'trainer-ckpt',
        policyVersion: 'step-20',
        firstReportedAt: day(7).toISOString(),
        newest: true,
        groups: 1,
        environments: 1,
        passes: 7,
        rollouts: 8,
        passRate: 0.875,
      },
    ]);
    const text = await prometheusText(db, { heldOut: true });
    expect(text).toContain(
      `envolve_lineage_probe_pass_rate{lineage_id="${lineage.id}",lineage="checkpoint lineage",generation="0",policy="trainer-ckpt",policy_version="step-20"} 0.875`,
    );
    expect(text).toContain('envolve_policy_checkpoint_pass_rate{policy="trainer-ckpt",policy_version="step-20"} 0.875');
    await db.lineage.delete({ where: { id: lineage.id } });
  });
});
