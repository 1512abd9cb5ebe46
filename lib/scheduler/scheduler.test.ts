import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { EVOLVE_JOB } from '../evolution/jobs.ts';
import { judgeGroup } from '../gate/index.ts';
import { forgetTrainablePool, recentTrainablePool, sampleTrainingBatch, trainableEnvironments } from './batch.ts';
import { schedulerConfigFrom } from './config.ts';
import { advanceLineage } from './frontier.ts';
import { holdOut, listHeldOutSets, releaseHeldOut, versionsOfSet } from './held-out.ts';
import { PROBE_JOB, scheduleLineage } from './jobs.ts';
import { setLineageGate } from './lineage-gate.ts';
import { reportTrainerGroup, trainerReportSchema, type TrainerReport } from './report.ts';
import { lineageWaits } from './waits.ts';

let testDb: TestDb;
let db: Db;
let lineageCount = 0;
const config = schedulerConfigFrom({});
// Every trainer group in this file is of one checkpoint, 't', unless a test names its own policy:
// the newest version of a policy is that policy's across every lineage.
const LEAD = { id: null, email: 'lead@example.test' };

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
});
afterAll(() => testDb.cleanup());

// A lineage with a seed and generations 1..states.length in the given states, each on its own version.
// The lineage names no policy: it is gated by the scheduler's default, trainer groups.
async function lineageWith(states: string[], probePolicy: string | null = null) {
  const n = ++lineageCount;
  const seed = await seedEnvironment(db, { name: `seed-${n}` });
  const lineage = await db.lineage.create({
    data: { name: `lineage ${n}`, seedVersionId: seed, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1, probePolicy },
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

// Groups arrive one millisecond apart in the order they are made, so "newest" is unambiguous.
let clock = Date.parse('2026-01-01T00:00:00Z');
async function group(
  versionId: string,
  passes: number,
  options: { size?: number; purpose?: string; errors?: number; policy?: string; policyVersion?: string } = {},
) {
  const size = options.size ?? 8;
  const errors = options.errors ?? 0;
  const policy = options.policy ?? 'trainer';
  return db.probeGroup.create({
    data: {
      versionId,
      purpose: options.purpose ?? (policy === 'trainer' ? 'trainer' : 'probe'),
      policy,
      simulated: policy === 'simulated',
      policyVersion: options.policyVersion ?? 't',
      createdAt: new Date(++clock),
      size,
      passes,
      completed: size - errors,
      errors,
      state: errors ? 'failed' : 'complete',
    },
  });
}

describe('the release gate: a rate with a minimum group, for one policy', () => {
  const rule = { policy: 'trainer', releaseRate: 0.75, minGroup: 8, demoMode: false };
  const counts = (
    passes: number,
    size: number,
    more: { completed?: number; errors?: number; policy?: string; policyVersion?: string; simulated?: boolean } = {},
  ) => ({
    size,
    passes,
    completed: more.completed ?? size,
    errors: more.errors ?? 0,
    policy: more.policy ?? 'trainer',
    policyVersion: more.policyVersion ?? 'step-2',
    simulated: more.simulated ?? false,
  });
  const judge = (c: ReturnType<typeof counts>, r: typeof rule) => judgeGroup(c, r, 'step-2');

  it('decides 1/1, 3/4, 6/8, 6/16 and 7/8 by rate and group size', () => {
    expect(judge(counts(1, 1), rule)).toMatchObject({ kind: 'ignored', reason: expect.stringMatching(/group of 1 .*at least 8/) });
    expect(judge(counts(3, 4), rule)).toMatchObject({ kind: 'ignored' });
    expect(judge(counts(3, 4), { ...rule, minGroup: 4 })).toEqual({ kind: 'pass', saturated: false }); // 75 % of 4 clears a rule that accepts groups of 4
    expect(judge(counts(6, 8), rule)).toEqual({ kind: 'pass', saturated: false });
    expect(judge(counts(6, 16), rule)).toMatchObject({ kind: 'hold', allFail: false, reason: expect.stringContaining('6/16') }); // 37.5 %
    expect(judge(counts(7, 8), rule)).toEqual({ kind: 'pass', saturated: false });
    expect(judge(counts(8, 8), rule)).toEqual({ kind: 'pass', saturated: true });
    expect(judge(counts(5, 8), rule)).toMatchObject({ kind: 'hold', allFail: false });
    expect(judge(counts(0, 8), rule)).toMatchObject({ kind: 'hold', allFail: true });
  });

  it('ignores a group of another policy, and a simulated one outside demo mode', () => {
    expect(judge(counts(8, 8, { policy: 'anthropic' }), rule)).toMatchObject({ kind: 'ignored', reason: expect.stringContaining('trainer groups only') });
    const simulatedRule = { ...rule, policy: 'simulated' };
    const simulated = counts(7, 8, { policy: 'simulated', simulated: true });
    expect(judge(simulated, simulatedRule)).toMatchObject({ kind: 'ignored', reason: expect.stringContaining('demo mode') });
    expect(judge(simulated, { ...simulatedRule, demoMode: true })).toEqual({ kind: 'pass', saturated: false });
  });

  it("ignores a group of an older version of the policy: an older checkpoint's group", () => {
    expect(judge(counts(8, 8, { policyVersion: 'step-1' }), rule)).toEqual({
      kind: 'ignored',
      reason: "an older checkpoint's group (step-1); newest is step-2",
    });
  });

  it('never judges an incomplete group', () => {
    expect(judge(counts(6, 8, { completed: 7 }), rule).kind).toBe('incomplete');
    expect(judge(counts(6, 8, { completed: 7, errors: 1 }), rule).kind).toBe('incomplete');
  });
});

describe('advancing a lineage', () => {
  it("waits for the trainer's group on the seed before anything else, queueing no probe", async () => {
    const { lineage, seed } = await lineageWith(['approved']);
    const result = await scheduleLineage(db, lineage.id, config);
    expect(result.steps).toEqual([{ kind: 'waiting', generation: 0, reason: 'waiting for a complete trainer group on G0' }]);
    expect(result.probeJobId).toBeUndefined();
    expect(await db.job.count({ where: { kind: PROBE_JOB, payload: { contains: seed } } })).toBe(0);
  });

  it('asks for a probe of the seed before anything else, once, when an endpoint policy gates it', async () => {
    const { lineage, seed } = await lineageWith(['approved'], 'openai');
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
      { kind: 'waiting', generation: 1, reason: 'waiting for a complete trainer group on G1' },
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
    expect(released).toMatchObject({ state: 'released', releasedByGroupId: probe.id, releasedByPolicy: 'trainer' });
    const rule = {
      policy: 'trainer',
      policyVersion: 't',
      releaseRate: 0.75,
      minGroup: 8,
      demoMode: false,
      timeoutReward: 0,
      passes: 7,
      size: 8,
      simulated: false,
    };
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
    await group(seed, 8, { policy: 'oracle' });
    expect((await advanceLineage(db, lineage.id, config)).steps).toEqual([
      { kind: 'waiting', generation: 0, reason: 'waiting for a complete trainer group on G0' },
    ]);
    expect((await db.lineage.findUniqueOrThrow({ where: { id: lineage.id } })).frontier).toBe(0);
  });

  it('refuses oracle, nop, and simulated outside demo mode as a gate, naming why, and changes nothing', async () => {
    const { lineage } = await lineageWith(['approved']);
    await expect(setLineageGate(db, LEAD, lineage.id, { probePolicy: 'oracle' }, config)).rejects.toThrow(/oracle cannot gate a lineage: .*passes every time/);
    await expect(setLineageGate(db, LEAD, lineage.id, { probePolicy: 'nop' }, config)).rejects.toThrow(/nop cannot gate a lineage/);
    await expect(setLineageGate(db, LEAD, lineage.id, { probePolicy: 'simulated' }, config)).rejects.toThrow(/outside demo mode/);
    expect((await db.lineage.findUniqueOrThrow({ where: { id: lineage.id } })).probePolicy).toBeNull();
    expect(await db.auditEvent.count({ where: { subjectId: lineage.id, action: 'lineage.gate' } })).toBe(0);
    expect(() => schedulerConfigFrom({ probePolicy: 'oracle' })).toThrow(/probePolicy: oracle cannot gate/);
  });

  it("counts only the newest checkpoint's groups: an older checkpoint's group never releases once a newer one has reported", async () => {
    // Its own trainer policy: the newest version of a policy is that policy's across every lineage.
    const policy = 'trainer-run-b';
    const { lineage, seed, generations } = await lineageWith(['approved', 'approved'], policy);
    const other = await lineageWith([], policy);
    await group(seed, 3, { policy, policyVersion: 'step-10' });
    expect((await advanceLineage(db, lineage.id, config)).steps).toEqual([
      { kind: 'held', generation: 0, passes: 3, size: 8, reason: '3/8 is below the release rate 0.75' },
    ]);
    // step-20 reports on another lineage's seed: step-10's groups no longer speak for the policy.
    await group(other.seed, 4, { policy, policyVersion: 'step-20' });
    await group(seed, 8, { policy, policyVersion: 'step-10' }); // a straggler of the older checkpoint
    const stale = await advanceLineage(db, lineage.id, config);
    expect(stale).toMatchObject({ frontier: 0, policyVersion: 'step-20' });
    expect(stale.steps).toEqual([{ kind: 'waiting', generation: 0, reason: "an older checkpoint's group (step-10); newest is step-20" }]);
    await group(seed, 6, { policy, policyVersion: 'step-20' });
    const advanced = await advanceLineage(db, lineage.id, config);
    expect(advanced.steps[0]).toEqual({ kind: 'released', generation: 1, versionId: generations[0]!.versionId });
    const released = await db.generation.findUniqueOrThrow({ where: { id: generations[0]!.id } });
    expect(JSON.parse(released.releaseRule!)).toMatchObject({ policy, policyVersion: 'step-20', passes: 6, size: 8 });
    // Checkpoints are ordered by when they first reported, not by name: step-9 after step-20 is newest.
    await group(generations[0]!.versionId!, 8, { policy, policyVersion: 'step-9' });
    expect((await advanceLineage(db, lineage.id, config)).steps[0]).toEqual({ kind: 'released', generation: 2, versionId: generations[1]!.versionId });
  });

  it('a demo lineage released by simulated groups is re-evaluated from trainer groups only when its policy changes, once confirmed', async () => {
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

    // Trainer groups: the seed passes, generation 1 holds at 5/8, so the frontier is generation 1.
    await group(seed, 8);
    await group(g1!.versionId!, 5);
    // The change withdraws three releases: it is refused, naming them, until confirmed.
    await expect(setLineageGate(db, LEAD, lineage.id, { probePolicy: 'trainer' }, config)).rejects.toThrow(
      'changing the policy to trainer withdraws the release of G1, G2, G3 (back to approved until trainer groups release them): confirm to go ahead',
    );
    expect((await db.lineage.findUniqueOrThrow({ where: { id: lineage.id } })).probePolicy).toBe('simulated');
    const trainer = await setLineageGate(db, LEAD, lineage.id, { probePolicy: 'trainer' }, config, { confirmWithdrawal: true });
    expect(trainer.frontier).toBe(1);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { subjectId: lineage.id, action: 'lineage.gate' }, orderBy: { createdAt: 'desc' } });
    expect([JSON.parse(audit.before!).policy, JSON.parse(audit.after!).policy, audit.actorEmail]).toEqual(['simulated', 'trainer', LEAD.email]);
    expect(trainer.steps.map((s) => s.kind)).toEqual(['released', 'held']);
    expect(await releasedBy()).toEqual([
      [1, 'released', 'trainer'],
      [2, 'approved', null],
      [3, 'approved', null],
    ]);
    expect((await db.lineage.findUniqueOrThrow({ where: { id: lineage.id } })).frontier).toBe(1);
  });

  it('ignores a group with sandbox errors', async () => {
    const { lineage, seed } = await lineageWith(['approved']);
    await group(seed, 7, { errors: 1 });
    const result = await advanceLineage(db, lineage.id, config);
    expect(result.steps[0]).toMatchObject({ kind: 'waiting', reason: 'waiting for a complete trainer group on G0' });
  });
});

describe('what approved generations wait for', () => {
  it("names the frontier's group against the rate, an older checkpoint's group, and the generation before", async () => {
    const policy = 'trainer-run-d';
    const { lineage, seed } = await lineageWith(['approved', 'approved', 'awaiting-review', 'approved'], policy);
    const other = await lineageWith([], policy);
    const after = (first: string) => ({
      frontier: first,
      generations: [
        { generation: 1, reason: first },
        { generation: 2, reason: 'waits for G1 to be released first' },
        { generation: 4, reason: 'waits for G3, which is not approved yet' },
      ],
    });
    expect(await lineageWaits(db, lineage.id, config)).toEqual(after('waiting for a complete trainer-run-d group on G0'));
    await group(seed, 5, { policy, policyVersion: 'step-1' });
    expect(await lineageWaits(db, lineage.id, config)).toEqual(after("G0's group 5/8 (trainer-run-d checkpoint step-1) is below 0.75"));
    await group(other.seed, 2, { policy, policyVersion: 'step-2' });
    expect(await lineageWaits(db, lineage.id, config)).toEqual(after("an older checkpoint's group (step-1); newest is step-2"));
    // Read-only: nothing was recorded on the group it judged.
    expect((await db.probeGroup.findMany({ where: { versionId: seed } })).map((g) => g.gate)).toEqual([null]);
  });
});

describe('trainer reports', () => {
  const reporter = { userId: 'trainer-user', email: 'trainer@example.com', tokenId: 'trainer-token', policies: ['trainer'] };
  const reported = async (report: TrainerReport) => (await reportTrainerGroup(db, report, config, reporter, { idempotencyTtlMs: 3_600_000 })).result;
  it('scores timeouts with the low reward and counts them; a 6/8 group releases the next generation', async () => {
    const { lineage, seed, generations } = await lineageWith(['approved']);
    await db.lineage.update({ where: { id: lineage.id }, data: { probePolicy: 'trainer' } });
    const report = trainerReportSchema.parse({
      versionId: seed,
      rewards: [1, 1, 1, 1, 1, 1, null, 0.2],
      timedOut: [false, false, false, false, false, false, true, false],
      policyVersion: 't',
    });
    const result = await reported(report);
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
    const report = trainerReportSchema.parse({ versionId: seed, rewards: [null, null, null, null, null, null, 1, 1], policyVersion: 't' });
    const result = await reported(report);
    expect(result).toMatchObject({ passes: 2, size: 8, timeouts: 6 });
    expect(result.advanced[0]?.steps[0]).toMatchObject({ kind: 'held', passes: 2, size: 8 });
    expect((await db.generation.findUniqueOrThrow({ where: { id: generations[0]!.id } })).state).toBe('approved');
  });

  it("scores timeouts with the lineage's timeout reward", async () => {
    const { lineage, seed } = await lineageWith([]);
    await db.lineage.update({ where: { id: lineage.id }, data: { timeoutReward: 1 } });
    const report = trainerReportSchema.parse({ versionId: seed, rewards: [null, 0], policyVersion: 't' });
    expect(await reported(report)).toMatchObject({ passes: 1, timeouts: 1 });
  });

  it('counts a reward above the bar reported as timed out as a failure', async () => {
    const { seed } = await lineageWith([]);
    const report = trainerReportSchema.parse({ versionId: seed, rewards: [1, 1], timedOut: [true, false], policyVersion: 't' });
    expect(await reported(report)).toMatchObject({ passes: 1, timeouts: 1 });
  });

  it('refuses malformed bodies and unknown or held-out versions', async () => {
    expect(trainerReportSchema.safeParse({ versionId: 'x', rewards: 'all' }).success).toBe(false);
    expect(trainerReportSchema.safeParse({ versionId: 'x', rewards: [1], timedOut: [true, false] }).success).toBe(false);
    await expect(reported(trainerReportSchema.parse({ versionId: 'nope', rewards: [1] }))).rejects.toThrow(/not found/);
    const { seed } = await lineageWith([]);
    await holdOut(db, { set: 'report-test', versionIds: [seed] });
    await expect(reported(trainerReportSchema.parse({ versionId: seed, rewards: [1] }))).rejects.toThrow(/held out/);
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
    expect(pool.environments.map((e) => [e.lineageId, e.generation]).sort()).toEqual(
      [
        [plain.lineage.id, 2],
        [allFail.lineage.id, 0],
      ].sort(),
    );
    const batch = await sampleTrainingBatch(db, { size: 5, seed: 7 });
    expect(batch.environments).toHaveLength(5);
    expect(new Set(batch.environments.map((e) => e.versionId))).toEqual(new Set([plain.generations[1]!.versionId, allFail.seed]));
    expect(batch.left_out).toEqual({
      total: 2,
      by_reason: { all_fail: 1, flagged: 1 },
      environments: expect.arrayContaining([
        {
          versionId: allFail.generations[0]!.versionId,
          lineageId: allFail.lineage.id,
          generation: 1,
          reason: 'all_fail',
          policy: 'trainer',
          policy_version: 't',
          passes: 0,
          size: 8,
        },
        expect.objectContaining({ versionId: compromised.seed, reason: 'flagged' }),
      ]),
    });
    expect(await sampleTrainingBatch(db, { size: 5, seed: 7 })).toEqual(batch);
    // Within a second the pool is reused; after it, or once dropped, it is read again.
    forgetTrainablePool(db);
    const t0 = Date.now();
    const served = async (now: number) => (await recentTrainablePool(db, now)).environments.map((e) => e.versionId);
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
    expect((await trainableEnvironments(db)).environments.map((e) => e.lineageId)).toContain(heldOutLineage.lineage.id);
    await expect(holdOut(db, { set: 'bad name!', versionIds: [] })).rejects.toThrow(/set name/);
  });

  it("leaves out saturated versions of the gating policy's newest checkpoint like all-fail ones, and says so", async () => {
    await db.lineage.updateMany({ data: { heldOutSet: 'earlier-tests' } });
    const policy = 'trainer-run-c';
    const { lineage, seed, generations } = await lineageWith(['released', 'released'], policy);
    await db.lineage.update({ where: { id: lineage.id }, data: { frontier: 2 } });
    const [g1, g2] = generations.map((g) => g.versionId!);
    await group(g2!, 8, { policy, policyVersion: 'step-1' });
    forgetTrainablePool(db);
    const first = await sampleTrainingBatch(db, { size: 4, seed: 1 });
    expect(first.environments.map((e) => [e.versionId, e.policy_version, e.passes])).toEqual(Array(4).fill([g1, 'step-1', null]));
    expect(first.left_out).toMatchObject({ total: 1, by_reason: { saturated: 1 }, environments: [{ versionId: g2, reason: 'saturated', passes: 8, size: 8 }] });
    // A newer checkpoint fails G1 everywhere and has not tried G2: G2 is served again (its 8/8 is an older checkpoint's).
    await group(g1!, 0, { policy, policyVersion: 'step-2' });
    forgetTrainablePool(db);
    const second = await sampleTrainingBatch(db, { size: 2, seed: 1 });
    expect(second.environments.map((e) => [e.versionId, e.policy_version, e.passes])).toEqual(Array(2).fill([g2, 'step-2', null]));
    expect(second.left_out.total).toBe(0);
    // Saturated and all-fail under step-2: the seed is all the lineage has left.
    await group(g2!, 8, { policy, policyVersion: 'step-2' });
    forgetTrainablePool(db);
    const third = await sampleTrainingBatch(db, { size: 1, seed: 1 });
    expect(third.environments.map((e) => e.versionId)).toEqual([seed]);
    expect(third.left_out.by_reason).toEqual({ saturated: 1, all_fail: 1 });
  });
});
