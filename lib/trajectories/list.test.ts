import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { listTrajectories, medianTurns, trajectoryFacets, trajectoryNeighbours } from './list.ts';
import { trajectoryListFromParams, trajectoryListSearch } from './list-query.ts';
import { seedRollout } from '../../test/fixtures/trajectory-rows.ts';

let testDb: TestDb;
let db: Db;
let alpha: string;
let beta: string;
const ids = {} as Record<'honest' | 'short' | 'hacker' | 'failed' | 'half' | 'timeout' | 'unscored', string>;
const t0 = Date.parse('2026-01-01T00:00:00Z');

const q = (params: Record<string, string> = {}) => trajectoryListFromParams(params);

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  alpha = await seedEnvironment(db, { name: 'alpha-task' });
  beta = await seedEnvironment(db, { name: 'beta_task' });
  const at = (minutes: number) => new Date(t0 + minutes * 60_000);
  // alpha: median turns 20 over five rollouts.
  ids.honest = await seedRollout(db, { versionId: alpha, reward: 1, turns: 20, durationMs: 60_000, createdAt: at(1) });
  ids.short = await seedRollout(db, { versionId: alpha, reward: 1, turns: 3, durationMs: 5_000, createdAt: at(2) });
  ids.hacker = await seedRollout(db, { versionId: alpha, reward: 1, turns: 2, touchedProtected: true, changedFiles: [], createdAt: at(3) });
  ids.failed = await seedRollout(db, { versionId: alpha, reward: 0, turns: 25, durationMs: 90_000, createdAt: at(4) });
  ids.half = await seedRollout(db, { versionId: alpha, reward: 0.5, turns: 30, policy: 'simulated', simulated: true, createdAt: at(5) });
  ids.timeout = await seedRollout(db, { versionId: beta, reward: 0, turns: 40, timedOut: true, durationMs: 600_000, createdAt: at(6) });
  ids.unscored = await seedRollout(db, { versionId: beta, reward: null, turns: 1, createdAt: at(7) });
});
afterAll(() => testDb.cleanup());

const order = async (params: Record<string, string> = {}) => (await listTrajectories(db, q(params))).items.map((item) => item.id);

describe('listTrajectories', () => {
  it('puts the top reward first by default, newest first among equals, unscored last', async () => {
    expect(await order()).toEqual([ids.hacker, ids.short, ids.honest, ids.half, ids.timeout, ids.failed, ids.unscored]);
  });

  it('lists the lowest reward first with dir=asc, oldest first among equals, unscored still last', async () => {
    expect(await order({ dir: 'asc' })).toEqual([ids.failed, ids.timeout, ids.half, ids.honest, ids.short, ids.hacker, ids.unscored]);
  });

  it('runs every sort either way, each the exact reverse of the other but for unscored rewards', async () => {
    for (const sort of ['turns', 'duration', 'newest'] as const) {
      expect(await order({ sort, dir: 'asc' }), sort).toEqual((await order({ sort })).reverse());
    }
    // The suspicious order breaks ties by reward, where an unscored reward comes last either way.
    const scored = (list: string[]) => list.filter((id) => id !== ids.unscored);
    const [down, up] = [await order({ sort: 'suspicious' }), await order({ sort: 'suspicious', dir: 'asc' })];
    expect(scored(up)).toEqual(scored(down).reverse());
    expect(down.at(-1)).toBe(ids.unscored);
  });

  it('pages in both directions without overlap or gap', async () => {
    for (const dir of ['desc', 'asc']) {
      const pages = await Promise.all([1, 2, 3].map(async (page) => (await listTrajectories(db, q({ dir, page: String(page) }), 3)).items.map((i) => i.id)));
      expect(pages.flat(), dir).toEqual(await order({ dir }));
    }
  });

  it('sorts by turns, duration and recency', async () => {
    expect((await order({ sort: 'turns' })).slice(0, 2)).toEqual([ids.timeout, ids.half]);
    expect((await order({ sort: 'duration' }))[0]).toBe(ids.timeout);
    expect((await order({ sort: 'newest' }))[0]).toBe(ids.unscored);
  });

  it('ranks suspicious rows by reward, few turns against the median, no artifact and protected paths, and says why', async () => {
    const page = await listTrajectories(db, q({ sort: 'suspicious' }));
    // Unsuspicious rows (score 0) follow in reward order.
    expect(page.items.slice(0, 3).map((item) => item.id)).toEqual([ids.hacker, ids.short, ids.honest]);
    expect(page.items.slice(0, 2).map((item) => item.suspicion)).toEqual([1 * (1 - 2 / 20) + 1 + 2, 1 - 3 / 20]);
    const hacker = page.items[0];
    expect(hacker?.medianTurns).toBe(20);
    expect(hacker?.reasons.map((r) => r.kind)).toEqual(['few-turns', 'no-artifact', 'touched-protected']);
    expect(page.items.find((item) => item.id === ids.honest)?.reasons).toEqual([]);
    expect(page.items.find((item) => item.id === ids.honest)?.suspicion).toBe(0);
  });

  it('filters by reward, passed, environment name (literal), policy, turns, duration, timed-out and simulated', async () => {
    expect(await order({ rewardMin: '0.5', rewardMax: '0.9' })).toEqual([ids.half]);
    expect(await order({ passed: 'no' })).toEqual([ids.half, ids.timeout, ids.failed, ids.unscored]);
    expect(await order({ env: 'beta_' })).toEqual([ids.timeout, ids.unscored]);
    // "_" is a literal, not LIKE's any-character.
    expect(await order({ env: 'alpha_' })).toEqual([]);
    expect(await order({ policy: 'simulated' })).toEqual([ids.half]);
    expect(await order({ turnsMin: '20', turnsMax: '30' })).toEqual([ids.honest, ids.half, ids.failed]);
    expect(await order({ durationMin: '60', durationMax: '100' })).toEqual([ids.honest, ids.failed]);
    expect(await order({ timedOut: 'yes' })).toEqual([ids.timeout]);
    expect(await order({ simulated: 'yes' })).toEqual([ids.half]);
    expect(await order({ version: beta, sort: 'newest' })).toEqual([ids.unscored, ids.timeout]);
  });

  it('pages, and clamps a page past the end to the last one', async () => {
    const second = await listTrajectories(db, q({ page: '2' }), 3);
    expect(second).toMatchObject({ total: 7, page: 2, pageCount: 3 });
    expect(second.items.map((item) => item.id)).toEqual([ids.half, ids.timeout, ids.failed]);
    const past = await listTrajectories(db, q({ page: '99' }), 3);
    expect(past.page).toBe(3);
    expect(past.items.map((item) => item.id)).toEqual([ids.unscored]);
  });

  it('labels rows with their environment and simulated policy', async () => {
    const [row] = (await listTrajectories(db, q({ simulated: 'yes' }))).items;
    expect(row).toMatchObject({ environment: 'alpha-task', simulated: true, policy: 'simulated', reward: 0.5, passed: false });
  });
});

describe('trajectoryNeighbours', () => {
  it('finds the previous and next rows in the list order and filters', async () => {
    expect(await trajectoryNeighbours(db, q(), ids.honest)).toEqual({ position: 3, total: 7, previousId: ids.short, nextId: ids.half });
    expect(await trajectoryNeighbours(db, q(), ids.hacker)).toMatchObject({ position: 1, previousId: null, nextId: ids.short });
    expect(await trajectoryNeighbours(db, q({ sort: 'suspicious' }), ids.short)).toMatchObject({ position: 2, previousId: ids.hacker, nextId: ids.honest });
    expect(await trajectoryNeighbours(db, q({ env: 'beta' }), ids.hacker)).toEqual({ position: null, total: 2, previousId: null, nextId: null });
  });

  it('walks the ascending order too', async () => {
    expect(await trajectoryNeighbours(db, q({ dir: 'asc' }), ids.honest)).toEqual({ position: 4, total: 7, previousId: ids.half, nextId: ids.short });
    expect(await trajectoryNeighbours(db, q({ dir: 'asc' }), ids.failed)).toMatchObject({ position: 1, previousId: null, nextId: ids.timeout });
    expect(await trajectoryNeighbours(db, q({ dir: 'asc' }), ids.unscored)).toMatchObject({ position: 7, previousId: ids.hacker, nextId: null });
  });
});

describe('list parameters', () => {
  it('drops invalid fields alone and writes back only what differs from the defaults', () => {
    const query = q({ sort: 'bogus', rewardMin: 'abc', policy: 'oracle', page: '0' });
    expect(query).toMatchObject({ sort: 'reward', page: 1, policy: 'oracle' });
    expect(query.rewardMin).toBeUndefined();
    expect(trajectoryListSearch(query)).toBe('?policy=oracle');
    expect(trajectoryListSearch(query, { sort: 'turns', page: 2 })).toBe('?sort=turns&policy=oracle&page=2');
    expect(trajectoryListSearch(q({ sort: 'reward', dir: 'asc' }))).toBe('?dir=asc');
    expect(q({ dir: 'sideways' }).dir).toBe('desc');
  });
});

describe('medianTurns', () => {
  it('takes the middle value of an odd count and the mean of the two middle values of an even one', async () => {
    const even = await seedEnvironment(db, { name: 'even-task' });
    for (const turns of [4, 10, 10, 1]) await seedRollout(db, { versionId: even, turns });
    const medians = await medianTurns(db, [alpha, beta, even]);
    expect(Object.fromEntries(medians)).toEqual({ [alpha]: 20, [beta]: 20.5, [even]: 7 });
    for (const id of await db.rollout.findMany({ where: { versionId: even }, select: { id: true } })) await db.rollout.delete({ where: { id: id.id } });
  });
});

describe('trajectoryFacets', () => {
  it('lists policies and environment names that have rollouts', async () => {
    expect(await trajectoryFacets(db)).toEqual({ policies: ['oracle', 'simulated'], lineages: [], environments: ['alpha-task', 'beta_task'] });
  });
});

describe('the stored suspicion', () => {
  it('follows the median: a much longer rollout raises it, rescoring the version and reordering the list', async () => {
    const gamma = await seedEnvironment(db, { name: 'gamma-task' });
    const at = (minutes: number) => new Date(t0 + minutes * 60_000);
    // Median turns 6 over 1, 6 and 20: only the 1-turn rollout is short.
    const quick = await seedRollout(db, { versionId: gamma, reward: 0.5, turns: 1, createdAt: at(10) });
    const steady = await seedRollout(db, { versionId: gamma, reward: 1, turns: 6, createdAt: at(11) });
    const slow = await seedRollout(db, { versionId: gamma, reward: 0, turns: 20, createdAt: at(12) });
    const stored = async () =>
      Object.fromEntries((await db.rollout.findMany({ where: { versionId: gamma }, select: { id: true, suspicion: true } })).map((r) => [r.id, r.suspicion]));
    expect(await stored()).toEqual({ [quick]: 0.5 * (1 - 1 / 6), [steady]: 0, [slow]: 0 });
    expect(await order({ sort: 'suspicious', env: 'gamma' })).toEqual([quick, steady, slow]);

    // Median (6 + 20) / 2 = 13: the 6-turn rollout is now short too, and its reward puts it first.
    const marathon = await seedRollout(db, { versionId: gamma, reward: 0, turns: 100, createdAt: at(13) });
    expect(await stored()).toEqual({ [quick]: 0.5 * (1 - 1 / 13), [steady]: 1 - 6 / 13, [slow]: 0, [marathon]: 0 });
    expect(await order({ sort: 'suspicious', env: 'gamma' })).toEqual([steady, quick, marathon, slow]);
    expect(await trajectoryNeighbours(db, q({ sort: 'suspicious', env: 'gamma' }), quick)).toMatchObject({ position: 2, previousId: steady, nextId: marathon });

    await db.rollout.deleteMany({ where: { versionId: gamma } });
  });
});
