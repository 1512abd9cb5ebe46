import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEnvironments } from '../dashboard/environments.ts';
import { listLineages } from '../dashboard/lineages.ts';
import { lineageListFromSearchParams } from '../dashboard/lineages-params.ts';
import { environmentSearchSchema } from '../dashboard/params.ts';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from './client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';

let testDb: TestDb;
let db: Db;
beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  for (const name of ['log-report', 'log_report', '100%-cpu', 'plain']) {
    const seedVersionId = await seedEnvironment(db, { name });
    await db.lineage.create({ data: { name, seedVersionId, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1 } });
  }
});
afterAll(() => testDb.cleanup());

describe('name search takes the text literally', () => {
  it('"%" and "_" are characters, not wildcards, for environments and lineages', async () => {
    const environments = async (q: string) => (await listEnvironments(db, { nameContains: q })).map((e) => e.name).sort();
    expect(await environments('%')).toEqual(['100%-cpu']);
    expect(await environments('_')).toEqual(['log_report']);
    expect(await environments('log')).toEqual(['log-report', 'log_report']);
    const lineages = async (q: string) => (await listLineages(db, { ...lineageListFromSearchParams({}), q })).items.map((l) => l.name).sort();
    expect(await lineages('_')).toEqual(['log_report']);
    expect(await lineages('%')).toEqual(['100%-cpu']);
  });

  it('search text with a NUL or another control character is refused by the query schema', () => {
    expect(environmentSearchSchema.safeParse({ q: 'log\u0000' }).success).toBe(false);
    expect(environmentSearchSchema.safeParse({ q: 'log' }).success).toBe(true);
  });
});
