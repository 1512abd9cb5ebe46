// Which frontiers wait for a group that counts, and since when, read from a real test database.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { schedulerConfigFrom } from '../scheduler/config.ts';
import { loadFrontierWaits } from './frontier-waits.ts';

let testDb: TestDb;
let db: Db;
beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
});
afterAll(() => testDb.cleanup());

const at = (h: number) => new Date(Date.UTC(2026, 5, 1, h));

async function lineage(name: string, createdAt: Date) {
  const seed = await seedEnvironment(db, { name });
  const row = await db.lineage.create({
    data: {
      name,
      seedVersionId: seed,
      axisPolicy: '{"kind":"round-robin"}',
      effort: 'low',
      synthesiser: 'procedural',
      seed: 1,
      probePolicy: 'trainer-w',
      frontier: 0,
      createdAt,
    },
  });
  return { id: row.id, seed };
}

const group = (versionId: string, policyVersion: string, passes: number, createdAt: Date) =>
  db.probeGroup.create({
    data: { versionId, purpose: 'trainer', policy: 'trainer-w', policyVersion, size: 8, passes, completed: 8, state: 'complete', createdAt },
  });

it('names the frontiers without a group of the newest checkpoint and when their wait began; a held frontier is not waiting', async () => {
  const none = await lineage('wait-none', at(1));
  const older = await lineage('wait-older', at(1));
  const held = await lineage('wait-held', at(1));
  await group(older.seed, 'step-1', 8, at(2));
  await group(held.seed, 'step-2', 3, at(5));
  await db.auditEvent.create({ data: { actorEmail: 'lead@x', action: 'lineage.gate', subjectType: 'lineage', subjectId: none.id, createdAt: at(3) } });
  const waits = await loadFrontierWaits(db, schedulerConfigFrom({}));
  expect(waits.get(none.id)).toEqual({ reason: 'waiting for a complete trainer-w group on G0', since: at(5) }); // step-2 first reported at 5
  expect(waits.get(older.id)).toEqual({ reason: "an older checkpoint's group (step-1); newest is step-2", since: at(5) });
  expect(waits.has(held.id)).toBe(false);
});
