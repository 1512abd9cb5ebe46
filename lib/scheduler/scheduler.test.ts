import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../db/test-db.ts';
import { EVOLVE_JOB } from '../evolution/jobs.ts';
import {
  advanceLineage,
  forgetTrainablePool,
  recentTrainablePool,
  holdOut,
  judgeGroup,
  listHeldOutSets,
  setLineageGate,
  PROBE_JOB,
  releaseHeldOut,
  reportTrainerGroup,
  sampleTrainingBatch,
  scheduleLineage,
  schedulerConfigFrom,
  trainableEnvironments,
  trainerReportSchema,
  versionsOfSet,
} from './index.ts';

let testDb: TestDb;
let db: Db;
let lineageCount = 0;
const config = schedulerConfigFrom({});
const LEAD = { id: null, email: 'lead@example.test' };

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
});
afterAll(() => testDb.cleanup());

// A lineage with a seed and generations 1..states.length in the given states, each on its own version.
async function lineageWith(states: string[]) {
  const n = ++lineageCount;
  const seed = await seedEnvironment(db, { name: `seed-${n}` });
  const lineage = await db.lineage.create({
    data: { name: `lineage ${n}`, seedVersionId: seed, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1 },
  });
  const generations = [];
  let parent = seed;
  for (const [i, state] of states.entries()) {
    const versionId = await seedEnvironment(db, { name: `seed-${n}-g${i + 1}` });
    generations.push(
      await db.generation.create({ data: { lineageId: lineage.id, number: i + 1, parentVersionId: parent, versionId, axis: 'length', effort: 'low', state } }),
    );
    parent = versionId;
  }
  return { lineage, seed, generations };
}

async function group(versionId: string, passes: number, options: { size?: number; purpose?: string; errors?: number; policy?: string } = {}) {
  const size = options.size ?? 8;
  const errors = options.errors ?? 0;
  const policy = options.policy ?? 'oracle';
  return db.probeGroup.create({
    data: {
      versionId,
      purpose: options.purpose ?? 'probe',
      policy,
      simulated: policy === 'simulated',
      policyVersion: 't',
      size,
      passes,
      completed: size - errors,
      errors,
      state: errors ? 'failed' : 'complete',
    },
  });
}

describe('the release gate: a rate with a minimum group, for one policy', () => {
  const rule = { policy: 'oracle', releaseRate: 0.75, minGroup: 8, demoMode: false };
  const counts = (passes: number, size: number, more: { completed?: number; errors?: number; policy?: string; simulated?: boolean } = {}) => ({
    size,
    passes,
    completed: more.completed ?? size,
    errors: more.errors ?? 0,
    policy: more.policy ?? 'oracle',
    simulated: more.simulated ?? false,
  });

  it('decides 1/1, 3/4, 6/8, 6/16 and 7/8 by rate and group size', () => {
    expect(judgeGroup(counts(1, 1), rule)).toMatchObject({ kind: 'ignored', reason: expect.stringMatching(/group of 1 .*at least 8/) });
    expect(judgeGroup(counts(3, 4), rule)).toMatchObject({ kind: 'ignored' });
    expect(judgeGroup(counts(3, 4), { ...rule, minGroup: 4 })).toEqual({ kind: 'pass', saturated: false }); // 75 % of 4 clears a rule that accepts groups of 4
    expect(judgeGroup(counts(6, 8), rule)).toEqual({ kind: 'pass', saturated: false });
    expect(judgeGroup(counts(6, 16), rule)).toMatchObject({ kind: 'hold', allFail: false, reason: expect.stringContaining('6/16') }); // 37.5 %
    expect(judgeGroup(counts(7, 8), rule)).toEqual({ kind: 'pass', saturated: false });
    expect(judgeGroup(counts(8, 8), rule)).toEqual({ kind: 'pass', saturated: true });
    expect(judgeGroup(counts(5, 8), rule)).toMatchObject({ kind: 'hold', allFail: false });
    expect(judgeGroup(counts(0, 8), rule)).toMatchObject({ kind: 'hold', allFail: true });
  });

  it('ignores a group of another policy, and a simulated one outside demo mode', () => {
    expect(judgeGroup(counts(8, 8, { policy: 'anthropic' }), rule)).toMatchObject({ kind: 'ignored', reason: expect.stringContaining('oracle groups only') });
    const simulatedRule = { ...rule, policy: 'simulated' };
    const simulated = counts(7, 8, { policy: 'simulated', simulated: true });
    expect(judgeGroup(simulated, simulatedRule)).toMatchObject({ kind: 'ignored', reason: expect.stringContaining('demo mode') });
    expect(judgeGroup(simulated, { ...simulatedRule, demoMode: true })).toEqual({ kind: 'pass', saturated: false });
  });

  it('never judges an incomplete group', () => {
    expect(judgeGroup(counts(6, 8, { completed: 7 }), rule).kind).toBe('incomplete');
    expect(judgeGroup(counts(6, 8, { completed: 7, errors: 1 }), rule).kind).toBe('incomplete');
  });
});

describe('advancing a lineage', () => {
  it('asks for a probe of the seed before anything else, once', async () => {
    const { lineage, seed } = await lineageWith(['approved']);
    const first = await scheduleLineage(db, lineage.id, config);
    expect(first.frontier).toBe(0);
    expect(first.steps).toEqual([{ kind: 'needs-probe', generation: 0, versionId: seed }]);
    const again = await scheduleLineage(db, lineage.id, config);
    expect(again.probeJobId).toBe(first.probeJobId);
    expect(await db.job.count({ where: { kind: PROBE_JOB, payload: { contains: seed } } })).toBe(1);
  });

  it('does not release the next generation at 5/8', async () => {
    const { lineage, seed, generations } = await lineageWith(['approved']);
    await group(seed, 5);
    const result = await advanceLineage(db, lineage.id, config);
    expect(result).toMatchObject({ frontier: 0, steps: [{ kind: 'held', generation: 0, passes: 5, size: 8 }] });
    expect((await db.generation.findUniqueOrThrow({ where: { id: generations[0]!.id } })).state).toBe('approved');
    expect((await db.lineage.findUniqueOrThrow({ where: { id: lineage.id } })).frontier).toBe(0);
  });

  it('releases the next generation at 6/8 and moves the frontier, then waits for its probe', async () => {
    const { lineage, seed, generations } = await lineageWith(['approved', 'approved']);
    const probe = await group(seed, 6);
    const result = await advanceLineage(db, lineage.id, config);
    const g1 = generations[0]!;
    expect(result.steps).toEqual([
      { kind: 'released', generation: 1, versionId: g1.versionId },
      { kind: 'needs-probe', generation: 1, versionId: g1.versionId },
    ]);
    expect(result.frontier).toBe(1);
    expect(await db.generation.findUniqueOrThrow({ where: { id: g1.id } })).toMatchObject({ state: 'released', revision: 1 });
    expect((await db.generation.findUniqueOrThrow({ where: { id: generations[1]!.id } })).state).toBe('approved');
    expect((await db.lineage.findUniqueOrThrow({ where: { id: lineage.id } })).frontier).toBe(1);
    expect((await db.probeGroup.findUniqueOrThrow({ where: { id: probe.id } })).gate).toBe('released-next');
  });

  it('never releases a generation that review has not approved', async () => {
    const { lineage, seed } = await lineageWith(['awaiting-review']);
    await group(seed, 8);
    const result = await advanceLineage(db, lineage.id, config);
    expect(result.steps).toEqual([{ kind: 'no-next', generation: 0 }]);
    expect(await db.job.count({ where: { kind: EVOLVE_JOB, payload: { contains: lineage.id } } })).toBe(0);
  });

  it('asks evolution for the next generation when the frontier is saturated and nothing follows it', async () => {
    const { lineage, seed } = await lineageWith(['rejected']);
    await group(seed, 8);
    const result = await advanceLineage(db, lineage.id, config);
    expect(result.steps[0]).toMatchObject({ kind: 'evolution-requested', generation: 0 });
    await advanceLineage(db, lineage.id, config);
    expect(await db.job.count({ where: { kind: EVOLVE_JOB, payload: { contains: lineage.id } } })).toBe(1);
  });

  it('stores the group, its policy and the rule with the release, and a later rule change keeps it', async () => {
    const { lineage, seed, generations } = await lineageWith(['approved']);
    const probe = await group(seed, 7);
    await advanceLineage(db, lineage.id, config);
    const released = await db.generation.findUniqueOrThrow({ where: { id: generations[0]!.id } });
    expect(released).toMatchObject({ state: 'released', releasedByGroupId: probe.id, releasedByPolicy: 'oracle' });
    const rule = { policy: 'oracle', releaseRate: 0.75, minGroup: 8, demoMode: false, timeoutReward: 0, passes: 7, size: 8, simulated: false };
    expect(JSON.parse(released.releaseRule!)).toEqual(rule);
    expect(JSON.parse((await db.probeGroup.findUniqueOrThrow({ where: { id: probe.id } })).gateRule!)).toEqual(rule);
    const stricter = await setLineageGate(db, LEAD, lineage.id, { releaseRate: 0.95 }, config);
    expect(stricter.rule.releaseRate).toBe(0.95);
    expect(await db.generation.findUniqueOrThrow({ where: { id: generations[0]!.id } })).toMatchObject({
      state: 'released',
      releaseRule: released.releaseRule,
    });
  });

  it('counts only groups of the lineage probe policy', async () => {
    const { lineage, seed } = await lineageWith(['approved']);
    await group(seed, 8, { policy: 'anthropic' });
    await group(seed, 8, { policy: 'simulated' });
    expect((await advanceLineage(db, lineage.id, config)).steps).toEqual([{ kind: 'needs-probe', generation: 0, versionId: seed }]);
    const simulatedWithoutDemo = await setLineageGate(db, LEAD, lineage.id, { probePolicy: 'simulated' }, config);
    expect(simulatedWithoutDemo.steps).toEqual([{ kind: 'waiting', generation: 0, reason: 'simulated groups release only a lineage in demo mode' }]);
    expect((await db.lineage.findUniqueOrThrow({ where: { id: lineage.id } })).frontier).toBe(0);
  });

  it('a demo lineage released by simulated groups is re-evaluated from oracle groups only when its policy changes', async () => {
    const { lineage, seed, generations } = await lineageWith(['approved', 'approved', 'approved']);
    await db.lineage.update({ where: { id: lineage.id }, data: { probePolicy: 'simulated', demoMode: true } });
    const [g1, g2] = generations;
    await group(seed, 6, { policy: 'simulated' });
    await group(g1!.versionId!, 7, { policy: 'simulated' });
    await group(g2!.versionId!, 6, { policy: 'simulated' });
    expect((await advanceLineage(db, lineage.id, config)).frontier).toBe(3);
    const releasedBy = async () =>
      (await db.generation.findMany({ where: { lineageId: lineage.id }, orderBy: { number: 'asc' } })).map((g) => [g.number, g.state, g.releasedByPolicy]);
    expect(await releasedBy()).toEqual([
      [1, 'released', 'simulated'],
      [2, 'released', 'simulated'],
      [3, 'released', 'simulated'],
    ]);

    // Oracle groups: the seed passes, generation 1 holds at 5/8, so the frontier is generation 1.
    await group(seed, 8);
    await group(g1!.versionId!, 5);
    const oracle = await setLineageGate(db, LEAD, lineage.id, { probePolicy: 'oracle' }, config);
    expect(oracle.frontier).toBe(1);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { subjectId: lineage.id, action: 'lineage.gate' }, orderBy: { createdAt: 'desc' } });
    expect([JSON.parse(audit.before!).policy, JSON.parse(audit.after!).policy, audit.actorEmail]).toEqual(['simulated', 'oracle', LEAD.email]);
    expect(oracle.steps.map((s) => s.kind)).toEqual(['released', 'held']);
    expect(await releasedBy()).toEqual([
      [1, 'released', 'oracle'],
      [2, 'approved', null],
      [3, 'approved', null],
    ]);
    expect((await db.lineage.findUniqueOrThrow({ where: { id: lineage.id } })).frontier).toBe(1);
  });

  it('ignores a group with sandbox errors', async () => {
    const { lineage, seed } = await lineageWith(['approved']);
    await group(seed, 7, { errors: 1 });
    const result = await advanceLineage(db, lineage.id, config);
    expect(result.steps[0]).toMatchObject({ kind: 'needs-probe' });
  });
});

describe('trainer reports', () => {
  it('scores timeouts with the low reward and counts them; a 6/8 group releases the next generation', async () => {
    const { lineage, seed, generations } = await lineageWith(['approved']);
    await db.lineage.update({ where: { id: lineage.id }, data: { probePolicy: 'trainer' } });
    const report = trainerReportSchema.parse({
      versionId: seed,
      rewards: [1, 1, 1, 1, 1, 1, null, 0.2],
      timedOut: [false, false, false, false, false, false, true, false],
    });
    const result = await reportTrainerGroup(db, report, config);
    expect(result).toMatchObject({ passes: 6, size: 8, timeouts: 1 });
    expect(result.advanced[0]?.steps[0]).toEqual({ kind: 'released', generation: 1, versionId: generations[0]!.versionId });
    expect(await db.probeGroup.findUniqueOrThrow({ where: { id: result.groupId } })).toMatchObject({
      purpose: 'trainer',
      completed: 8,
      timeouts: 1,
      passes: 6,
    });
  });

  it('refuses a trainer-reported timeoutReward, naming the field; the server scores six timeouts as fails', async () => {
    const refused = trainerReportSchema.safeParse({ versionId: 'x', rewards: [null, null, null, null, null, null, 1, 1], timeoutReward: 1 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => i.path.join('.'))).toEqual(['timeoutReward']);
    const { lineage, seed, generations } = await lineageWith(['approved']);
    await db.lineage.update({ where: { id: lineage.id }, data: { probePolicy: 'trainer' } });
    const report = trainerReportSchema.parse({ versionId: seed, rewards: [null, null, null, null, null, null, 1, 1] });
    const result = await reportTrainerGroup(db, report, config);
    expect(result).toMatchObject({ passes: 2, size: 8, timeouts: 6 });
    expect(result.advanced[0]?.steps[0]).toMatchObject({ kind: 'held', passes: 2, size: 8 });
    expect((await db.generation.findUniqueOrThrow({ where: { id: generations[0]!.id } })).state).toBe('approved');
  });

  it("scores timeouts with the lineage's timeout reward", async () => {
    const { lineage, seed } = await lineageWith([]);
    await db.lineage.update({ where: { id: lineage.id }, data: { timeoutReward: 1 } });
    const report = trainerReportSchema.parse({ versionId: seed, rewards: [null, 0] });
    expect(await reportTrainerGroup(db, report, config)).toMatchObject({ passes: 1, timeouts: 1 });
  });

  it('counts a reward above the bar reported as timed out as a failure', async () => {
    const { seed } = await lineageWith([]);
    const report = trainerReportSchema.parse({ versionId: seed, rewards: [1, 1], timedOut: [true, false] });
    expect(await reportTrainerGroup(db, report, config)).toMatchObject({ passes: 1, timeouts: 1 });
  });

  it('refuses malformed bodies and unknown or held-out versions', async () => {
    expect(trainerReportSchema.safeParse({ versionId: 'x', rewards: 'all' }).success).toBe(false);
    expect(trainerReportSchema.safeParse({ versionId: 'x', rewards: [1], timedOut: [true, false] }).success).toBe(false);
    await expect(reportTrainerGroup(db, trainerReportSchema.parse({ versionId: 'nope', rewards: [1] }), config)).rejects.toThrow(/not found/);
    const { seed } = await lineageWith([]);
    await holdOut(db, { set: 'report-test', versionIds: [seed] });
    await expect(reportTrainerGroup(db, trainerReportSchema.parse({ versionId: seed, rewards: [1] }), config)).rejects.toThrow(/held out/);
  });
});

describe('trainer batches and held-out sets', () => {
  it('serves frontiers only: never held-out, compromised or all-fail versions, falling back to the highest trainable release', async () => {
    await db.lineage.updateMany({ data: { heldOutSet: 'earlier-tests' } });
    const plain = await lineageWith(['released', 'released']);
    await db.lineage.update({ where: { id: plain.lineage.id }, data: { frontier: 2 } });
    const allFail = await lineageWith(['released']);
    await db.lineage.update({ where: { id: allFail.lineage.id }, data: { frontier: 1 } });
    await group(allFail.generations[0]!.versionId!, 0);
    const compromised = await lineageWith([]);
    await db.environmentVersion.update({ where: { id: compromised.seed }, data: { compromisedAt: new Date(), compromisedReason: 'writes the reward file' } });
    const heldOutLineage = await lineageWith([]);
    await holdOut(db, { set: 'eval-a', lineageIds: [heldOutLineage.lineage.id] });

    const pool = await trainableEnvironments(db);
    expect(pool.map((e) => [e.lineageId, e.generation]).sort()).toEqual(
      [
        [plain.lineage.id, 2],
        [allFail.lineage.id, 0],
      ].sort(),
    );
    const batch = await sampleTrainingBatch(db, { size: 5, seed: 7 });
    expect(batch).toHaveLength(5);
    expect(new Set(batch.map((e) => e.versionId))).toEqual(new Set([plain.generations[1]!.versionId, allFail.seed]));
    expect(await sampleTrainingBatch(db, { size: 5, seed: 7 })).toEqual(batch);
    // Within a second the pool is reused; after it, or once dropped, it is read again.
    forgetTrainablePool(db);
    const t0 = Date.now();
    const served = async (now: number) => (await recentTrainablePool(db, now)).map((e) => e.versionId);
    expect(await served(t0)).toContain(allFail.seed);
    await db.environmentVersion.update({ where: { id: allFail.seed }, data: { compromisedAt: new Date() } });
    expect(await served(t0 + 999)).toContain(allFail.seed);
    expect(await served(t0 + 1000)).not.toContain(allFail.seed);
    await db.environmentVersion.update({ where: { id: allFail.seed }, data: { compromisedAt: null } });
    expect(await served(t0 + 1001)).not.toContain(allFail.seed);
    forgetTrainablePool(db);
    expect(await served(t0 + 1002)).toContain(allFail.seed);

    expect(await versionsOfSet(db, 'eval-a')).toEqual([heldOutLineage.seed]);
    expect((await listHeldOutSets(db)).find((s) => s.set === 'eval-a')).toEqual({ set: 'eval-a', versions: 0, lineages: 1 });
    await releaseHeldOut(db, 'eval-a');
    expect((await trainableEnvironments(db)).map((e) => e.lineageId)).toContain(heldOutLineage.lineage.id);
    await expect(holdOut(db, { set: 'bad name!', versionIds: [] })).rejects.toThrow(/set name/);
  });
});
