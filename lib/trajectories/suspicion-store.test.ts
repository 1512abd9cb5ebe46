import { describe, expect } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from '../db/client.ts';
import { fileDbTest } from '../../test/fixtures/test.ts';
import { medianTurns } from './list.ts';
import { suspicionScore } from './suspicion.ts';
import { refreshAllSuspicion, refreshSuspicion } from './suspicion-store.ts';

let seed = 0;
const ARTIFACT = JSON.stringify([{ path: 'app/out.txt', size: 3, blobHash: 'x' }]);

// Rollout rows written without a refresh, as bulk seeders write them.
async function insertRollouts(
  db: Db,
  versionId: string,
  rows: { reward: number | null; turns: number; changedFiles?: string; touchedProtected?: boolean }[],
): Promise<void> {
  await db.rollout.createMany({
    data: rows.map((row) => ({
      attempt: 1,
      versionId,
      policy: 'oracle',
      policyVersion: '1',
      seed: ++seed,
      status: 'completed',
      changedFiles: ARTIFACT,
      ...row,
    })),
  });
}

// What suspicion.ts scores each rollout of these versions, beside what is stored.
async function scores(db: Db, versionIds: string[]): Promise<{ stored: number; expected: number }[]> {
  const medians = await medianTurns(db, versionIds);
  const rows = await db.rollout.findMany({ where: { versionId: { in: versionIds } }, orderBy: { seed: 'asc' } });
  return rows.map((row) => ({
    stored: row.suspicion,
    expected: suspicionScore({
      reward: row.reward,
      turns: row.turns,
      medianTurns: medians.get(row.versionId) ?? null,
      noArtifact: row.changedFiles === '[]',
      touchedProtected: row.touchedProtected,
    }),
  }));
}

describe('refreshSuspicion', () => {
  fileDbTest('stores suspicionScore against the median of the version, only for the versions asked', async ({ db }) => {
    const odd = await seedEnvironment(db, { name: 'odd-task' });
    const even = await seedEnvironment(db, { name: 'even-task' });
    await insertRollouts(db, odd, [
      { reward: 1, turns: 3 },
      { reward: 0.7, turns: 9, changedFiles: '[]' },
      { reward: null, turns: 30, touchedProtected: true },
    ]);
    await insertRollouts(db, even, [
      { reward: 0.3, turns: 2, touchedProtected: true },
      { reward: 1, turns: 7 },
      { reward: 0, turns: 1 },
      { reward: 1, turns: 10 },
    ]);

    await refreshSuspicion(db, [even]);
    const [oddScores, evenScores] = [await scores(db, [odd]), await scores(db, [even])];
    expect(oddScores.map((s) => s.stored)).toEqual([0, 0, 0]);
    // Median (2 + 7) / 2 = 4.5.
    expect(evenScores.map((s) => s.stored)).toEqual([0.3 * (1 - 2 / 4.5 + 2), 0, 0, 0]);
    for (const { stored, expected } of evenScores) expect(stored).toBe(expected);

    await refreshAllSuspicion(db);
    for (const { stored, expected } of await scores(db, [odd, even])) expect(stored).toBe(expected);
    expect((await scores(db, [odd])).map((s) => s.stored)).toEqual([1 * (1 - 3 / 9), 0.7 * 1, 0]);
  });
});
