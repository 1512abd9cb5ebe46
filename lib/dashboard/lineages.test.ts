import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { seedLineage, type LineageFixture } from '../../test/fixtures/lineage-rows.ts';
import { schedulerConfigFrom } from '../scheduler/config.ts';
import { getLineageTree, listLineages } from './lineages.ts';
import type { LineageListQuery } from './lineages-types.ts';

let testDb: TestDb;
let big: LineageFixture;
let small: LineageFixture;

const query = (overrides: Partial<LineageListQuery> = {}): LineageListQuery => ({ sort: 'activity', page: 1, pageSize: 25, ...overrides });

beforeAll(async () => {
  testDb = await createTestDb();
  big = await seedLineage(testDb.db, {
    name: 'alpha-big',
    generations: 15,
    attempts: 3,
    failedSiblingsAt: [4],
    stateOf: (n) => (n <= 2 ? 'released' : n === 15 ? 'validating' : 'awaiting-review'),
  });
  await testDb.db.lineage.update({ where: { id: big.lineageId }, data: { frontier: 2 } });
  small = await seedLineage(testDb.db, { name: 'beta-small', generations: 2, attempts: 1, synthesiser: 'anthropic', status: 'evolving' });
  // Older activity: written first, then pushed back in time.
  for (let i = 0; i < 30; i += 1) {
    const extra = await seedLineage(testDb.db, {
      name: `gamma-${String(i).padStart(2, '0')}`,
      generations: 1,
      attempts: 1,
      seedVersionId: small.seedVersionId,
    });
    await testDb.db.generation.updateMany({ where: { lineageId: extra.lineageId }, data: { updatedAt: new Date(Date.UTC(2020, 0, 1 + i)) } });
    await testDb.db.lineage.update({ where: { id: extra.lineageId }, data: { updatedAt: new Date(Date.UTC(2020, 0, 1 + i)) } });
  }
});

afterAll(async () => {
  await testDb.cleanup();
});

describe('listLineages', () => {
  it('counts settled and failed generations, reports the frontier and per-generation validator pass rates', async () => {
    const page = await listLineages(testDb.db, query({ q: 'alpha' }));
    expect(page.total).toBe(1);
    const [alpha] = page.items;
    expect(alpha).toMatchObject({
      name: 'alpha-big',
      seedName: 'alpha-big-seed',
      settledGenerations: 14, // 15 minus the one still validating
      failedGenerations: 1,
      frontier: 2,
      axisPolicy: 'round-robin',
      synthesiser: 'procedural',
    });
    // 16 generations (the failed sibling included), in number order.
    expect(alpha?.passRates).toHaveLength(16);
    expect(alpha?.passRates.map((p) => p.number)).toEqual([1, 2, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    // Settled: 3 attempts × 3 runs, of which the 2 failed attempts' oracle runs failed → 7/9.
    expect(alpha?.passRates[0]).toMatchObject({ runs: 9, rate: 7 / 9 });
    const failedPoint = alpha?.passRates.find((p) => p.state === 'failed');
    expect(failedPoint).toMatchObject({ runs: 9, rate: 6 / 9 });
  });

  it('filters by status, synthesiser and text', async () => {
    expect((await listLineages(testDb.db, query({ status: 'evolving' }))).items.map((i) => i.name)).toEqual(['beta-small']);
    expect((await listLineages(testDb.db, query({ synthesiser: 'anthropic' }))).items.map((i) => i.name)).toEqual(['beta-small']);
    expect((await listLineages(testDb.db, query({ q: 'gamma-0' }))).total).toBe(10);
    const all = await listLineages(testDb.db, query());
    expect(all.synthesisers).toEqual(['anthropic', 'procedural']);
  });

  it('sorts by activity, name and generation count, and paginates on the server', async () => {
    const byActivity = await listLineages(testDb.db, query({ pageSize: 10 }));
    expect(byActivity.total).toBe(32);
    expect(byActivity.pageCount).toBe(4);
    expect(byActivity.items).toHaveLength(10);
    expect(byActivity.items[2]?.name).toBe('gamma-29'); // newest of the back-dated ones
    const last = await listLineages(testDb.db, query({ pageSize: 10, page: 4 }));
    expect(last.items.map((i) => i.name)).toEqual(['gamma-01', 'gamma-00']);
    // A page past the end shows the last page.
    expect((await listLineages(testDb.db, query({ pageSize: 10, page: 99 }))).page).toBe(4);

    const byName = await listLineages(testDb.db, query({ sort: 'name', pageSize: 3 }));
    expect(byName.items.map((i) => i.name)).toEqual(['alpha-big', 'beta-small', 'gamma-00']);
    const byGenerations = await listLineages(testDb.db, query({ sort: 'generations', pageSize: 2 }));
    expect(byGenerations.items.map((i) => i.settledGenerations)).toEqual([14, 2]);
    // The other direction reverses each order.
    const byNameDescending = await listLineages(testDb.db, query({ sort: 'name', dir: 'desc', pageSize: 3, page: 11 }));
    expect(byNameDescending.items.map((i) => i.name)).toEqual(['beta-small', 'alpha-big']);
    const oldestFirst = await listLineages(testDb.db, query({ dir: 'asc', pageSize: 2 }));
    expect(oldestFirst.items.map((i) => i.name)).toEqual(['gamma-00', 'gamma-01']);
    const fewestGenerations = await listLineages(testDb.db, query({ sort: 'generations', dir: 'asc', pageSize: 32 }));
    expect(fewestGenerations.items.at(-1)?.settledGenerations).toBe(14);
  });

  it('answers an empty page when nothing matches', async () => {
    const page = await listLineages(testDb.db, query({ q: 'no-such-lineage' }));
    expect(page).toMatchObject({ items: [], total: 0, page: 1, pageCount: 1 });
  });
});

describe('getLineageTree', () => {
  it('returns every generation with attempts, verdicts and difficulty', async () => {
    const tree = await getLineageTree(testDb.db, big.lineageId, { config: schedulerConfigFrom({}) });
    expect(tree).not.toBeNull();
    expect(tree?.seed).toMatchObject({ versionId: big.seedVersionId, name: 'alpha-big-seed' });
    expect(tree?.generations).toHaveLength(16);
    expect(tree?.frontier).toBe(2);

    const g1 = tree?.generations.find((g) => g.id === big.generationIds[0]);
    expect(g1).toMatchObject({ number: 1, state: 'released', parentVersionId: big.seedVersionId, axis: 'length', effort: 'low' });
    expect(g1?.difficulty).toMatchObject({ length: 3, scenarioNovelty: 6.5, skillRarity: 7.25, total: 16.75 });
    expect(g1?.attempts.map((a) => a.state)).toEqual(['invalid', 'error', 'valid']);
    // The generation's verdicts are those of the attempt it settled on: all passed.
    expect(g1?.verdicts.map((v) => `${v.kind}:${v.verdict}`).sort()).toEqual(['invalid-test:passed', 'oracle:passed', 'rubric:passed']);
    expect(g1?.attempts[0]?.verdicts.find((v) => v.kind === 'oracle')?.verdict).toBe('failed');

    // A rubric run without verdicts judged nothing: its badge says so, not "passed".
    expect(g1?.verdicts.find((v) => v.kind === 'rubric')).toMatchObject({ verdict: 'passed', label: 'no items', judged: 'no items' });

    const failed = tree?.generations.find((g) => g.id === big.failedGenerationIds[0]);
    expect(failed).toMatchObject({ number: 4, state: 'failed', versionId: null, difficulty: null });
    const settled4 = tree?.generations.find((g) => g.id === big.generationIds[3]);
    expect(failed?.parentVersionId).toBe(settled4?.parentVersionId);
  });

  it('says what a rubric run judged: a passed check beside an unasked question is "partly judged", never "passed"', async () => {
    const db = testDb.db;
    const settled = await db.attempt.findFirstOrThrow({ where: { generationId: big.generationIds[1], state: 'valid' } });
    const run = await db.validatorRun.findFirstOrThrow({ where: { attemptId: settled.id, kind: 'rubric' } });
    const item = await db.rubricItem.create({ data: { key: 'tree_item', version: 1, title: 't', description: 'd', check: 'true', question: 'q?' } });
    await db.rubricVerdict.createMany({
      data: [
        { validatorRunId: run.id, itemId: item.id, method: 'executable', verdict: 'passed' },
        { validatorRunId: run.id, itemId: item.id, method: 'llm', verdict: 'unjudged' },
      ],
    });
    const tree = await getLineageTree(db, big.lineageId, { config: schedulerConfigFrom({}) });
    const g2 = tree?.generations.find((g) => g.id === big.generationIds[1]);
    expect(g2?.verdicts.find((v) => v.kind === 'rubric')).toMatchObject({
      verdict: 'passed',
      label: 'partly judged',
      judged: '1 of 2 judged, 1 needs an LLM judge',
    });
    expect(g2?.verdicts.find((v) => v.kind === 'oracle')).toMatchObject({ verdict: 'passed', label: 'passed', judged: null });
  });

  it('names who released each generation and shows pass rates of one policy, the gating policy by default', async () => {
    const db = testDb.db;
    const config = schedulerConfigFrom({});
    const g1 = await db.generation.findUniqueOrThrow({ where: { id: big.generationIds[0] } });
    const rule = {
      policy: 'simulated',
      policyVersion: '2',
      releaseRate: 0.75,
      minGroup: 8,
      demoMode: true,
      timeoutReward: 0,
      passes: 7,
      size: 8,
      simulated: true,
    };
    const group = await db.probeGroup.create({
      data: {
        versionId: g1.versionId!,
        purpose: 'probe',
        policy: 'simulated',
        simulated: true,
        policyVersion: '2',
        size: 8,
        passes: 7,
        completed: 8,
        state: 'complete',
      },
    });
    await db.probeGroup.create({
      data: { versionId: g1.versionId!, purpose: 'trainer', policy: 'trainer', policyVersion: 'step-4', size: 8, passes: 5, completed: 8, state: 'complete' },
    });
    await db.generation.update({
      where: { id: g1.id },
      data: { releasedByGroupId: group.id, releasedByPolicy: 'simulated', releaseRule: JSON.stringify(rule) },
    });

    const byDefault = await getLineageTree(db, big.lineageId, { config });
    expect(byDefault).toMatchObject({
      policy: 'trainer',
      policyVersion: 'step-4',
      gate: { policy: 'trainer', releaseRate: 0.75, minGroup: 8, demoMode: false },
      policies: ['simulated', 'trainer'],
    });
    const tg1 = byDefault!.generations.find((g) => g.id === g1.id)!;
    expect(tg1.release).toEqual({
      groupId: group.id,
      policy: 'simulated',
      policyVersion: '2',
      simulated: true,
      passes: 7,
      size: 8,
      releaseRate: 0.75,
      minGroup: 8,
      demoMode: true,
      reportedBy: null, // Envolve's own probe
    });
    expect(tg1.probe).toEqual({ policy: 'trainer', policyVersion: 'step-4', passes: 5, size: 8, simulated: false });
    const simulated = await getLineageTree(db, big.lineageId, { config, policy: 'simulated' });
    expect(simulated!.generations.find((g) => g.id === g1.id)!.probe).toEqual({ policy: 'simulated', policyVersion: '2', passes: 7, size: 8, simulated: true });
    // A generation released before releases were recorded says so with nulls.
    expect(byDefault!.generations.find((g) => g.id === big.generationIds[1])!.release).toMatchObject({ policy: null, passes: null });

    // A release by a trainer's group names who reported it: the user and the token.
    const user = await db.user.create({ data: { id: 'u-lab-trainer', email: 'lab@trainer.test', name: 'lab', role: 'trainer' } });
    const token = await db.apiToken.create({ data: { name: 'gpu box 3', userId: user.id, tokenHash: 'lab-token-hash' } });
    const reported = await db.probeGroup.create({
      data: {
        versionId: g1.versionId!,
        purpose: 'trainer',
        policy: 'trainer',
        policyVersion: 'step-0',
        size: 8,
        passes: 8,
        completed: 8,
        state: 'complete',
        userId: user.id,
        tokenId: token.id,
        createdAt: new Date(0), // first seen long ago: step-4 stays the newest checkpoint
      },
    });
    await db.generation.update({ where: { id: g1.id }, data: { releasedByGroupId: reported.id, releasedByPolicy: 'trainer' } });
    const named = await getLineageTree(db, big.lineageId, { config });
    expect(named!.generations.find((g) => g.id === g1.id)!.release!.reportedBy).toEqual({ email: 'lab@trainer.test', token: 'gpu box 3' });
  });

  it('returns null for an unknown lineage', async () => {
    expect(await getLineageTree(testDb.db, 'no-such-lineage', { config: schedulerConfigFrom({}) })).toBeNull();
  });
});
