// How long the trajectory list takes over 100,000 rollouts: every sort, a filtered page, a
// deep page and a neighbour lookup, in a throwaway SQLite database.
// Run: npx tsx bench/trajectory-list.ts [rollouts]
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { seedEnvironment } from '../test/fixtures/dashboard-rows.ts';
import { createTestDb } from '../test/fixtures/db.ts';
import { listTrajectories, trajectoryFacets, trajectoryNeighbours, trajectoryListFromParams, refreshAllSuspicion } from '../lib/trajectories/index.ts';

const ROLLOUTS = Number(process.argv[2] ?? 100_000);
const VERSIONS = 200;

async function main(): Promise<void> {
  const testDb = await createTestDb();
  const versionIds: string[] = [];
  for (let i = 0; i < VERSIONS; i++) versionIds.push(await seedEnvironment(testDb.db, { name: `task-${i}` }));
  // Bulk rows through one prepared statement: Prisma's createMany would dominate the run.
  const sqlite = new Database(testDb.url.replace(/^file:/, ''));
  const insert =
    sqlite.prepare(`INSERT INTO "Rollout" ("id","attempt","versionId","policy","policyVersion","simulated","seed","status","reward","passed","timedOut","turns","durationMs","changedFiles","touchedProtected","createdAt")
    VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`);
  const start = Date.parse('2026-01-01T00:00:00Z');
  sqlite.transaction(() => {
    for (let i = 0; i < ROLLOUTS; i++) {
      const reward = i % 3 === 0 ? 1 : i % 3 === 1 ? 0 : (i % 97) / 97;
      insert.run(
        `r${i}`,
        1,
        versionIds[i % VERSIONS],
        i % 4 === 0 ? 'simulated' : 'anthropic',
        '1',
        i % 4 === 0 ? 1 : 0,
        i,
        'completed',
        reward,
        reward >= 1 ? 1 : 0,
        i % 50 === 0 ? 1 : 0,
        5 + (i % 60),
        1000 + (i % 5000) * 37,
        i % 11 === 0 ? '[]' : '[{"path":"a","size":1,"blobHash":"x"}]',
        i % 101 === 0 ? 1 : 0,
        new Date(start + i * 1000).toISOString(),
      );
    }
  })();
  sqlite.close();
  const refreshStarted = performance.now();
  await refreshAllSuspicion(testDb.db); // the raw inserts bypassed the stored suspicious-order score
  console.log(`suspicion of ${ROLLOUTS} rollouts stored in ${(performance.now() - refreshStarted).toFixed(0)} ms`);

  const time = async (label: string, run: () => Promise<unknown>) => {
    await run(); // warm
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await run();
      samples.push(performance.now() - t);
    }
    samples.sort((a, b) => a - b);
    console.log(`${label.padEnd(44)} median ${samples[2]?.toFixed(1)} ms  max ${samples[4]?.toFixed(1)} ms`);
  };
  const q = (params: Record<string, string>) => trajectoryListFromParams(params);
  console.log(`${ROLLOUTS} rollouts over ${VERSIONS} versions`);
  for (const sort of ['reward', 'newest', 'turns', 'duration', 'suspicious']) {
    await time(`sort=${sort}, page 1`, () => listTrajectories(testDb.db, q({ sort })));
  }
  await time('sort=reward, page 1000 (deep offset)', () => listTrajectories(testDb.db, q({ page: '1000' })));
  await time('filtered: env + passed + turns', () => listTrajectories(testDb.db, q({ env: 'task-7', passed: 'yes', turnsMax: '20' })));
  await time('filtered: simulated=no, sort=suspicious', () => listTrajectories(testDb.db, q({ simulated: 'no', sort: 'suspicious' })));
  await time('neighbours (reward order)', () => trajectoryNeighbours(testDb.db, q({}), 'r50000'));
  await time('neighbours (suspicious order)', () => trajectoryNeighbours(testDb.db, q({ sort: 'suspicious' }), 'r50000'));
  await time('facets', () => trajectoryFacets(testDb.db));
  await testDb.cleanup();
}

await main();
