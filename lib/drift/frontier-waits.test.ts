// Which frontiers wait for a group that counts, and since when, read from a real test database.
import { expect } from 'vitest';
import { seedLineage } from '../../test/fixtures/lineage-rows.ts';
import type { Db } from '../db/client.ts';
import { fileDbTest } from '../../test/fixtures/test.ts';
import { schedulerConfigFrom } from '../scheduler/config.ts';
import { loadFrontierWaits } from './frontier-waits.ts';

const at = (h: number) => new Date(Date.UTC(2026, 5, 1, h));

async function lineage(db: Db, name: string, createdAt: Date) {
  const row = await seedLineage(db, { name, generations: 0, attempts: 0, columns: { probePolicy: 'trainer-w', frontier: 0, createdAt } });
  return { id: row.lineageId, seed: row.seedVersionId };
}

const group = (db: Db, versionId: string, policyVersion: string, passes: number, createdAt: Date) =>
  db.probeGroup.create({
    data: { versionId, purpose: 'trainer', policy: 'trainer-w', policyVersion, size: 8, passes, completed: 8, state: 'complete', createdAt },
  });

fileDbTest('names the frontiers without a group of the newest checkpoint and when their wait began; a held frontier is not waiting', async ({ db }) => {
  const none = await lineage(db, 'wait-none', at(1));
  const older = await lineage(db, 'wait-older', at(1));
  const held = await lineage(db, 'wait-held', at(1));
  await group(db, older.seed, 'step-1', 8, at(2));
  await group(db, held.seed, 'step-2', 3, at(5));
  await db.auditEvent.create({ data: { actorEmail: 'lead@x', action: 'lineage.gate', subjectType: 'lineage', subjectId: none.id, createdAt: at(3) } });
  const waits = await loadFrontierWaits(db, schedulerConfigFrom({}));
  expect(waits.get(none.id)).toEqual({ reason: 'waiting for a complete trainer-w group on G0', since: at(5) }); // step-2 first reported at 5
  expect(waits.get(older.id)).toEqual({ reason: "an older checkpoint's group (step-1); newest is step-2", since: at(5) });
  expect(waits.has(held.id)).toBe(false);
});
