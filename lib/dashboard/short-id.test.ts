import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import { resolveIdPrefix } from './short-id.ts';

let testDb: TestDb;
let db: Db;
let ids: string[];

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  ids = [await seedEnvironment(db, { name: 'a' })];
});
afterAll(() => testDb.cleanup());

describe('resolveIdPrefix', () => {
  it('resolves a unique prefix, lists an ambiguous one, and ignores short or odd ones', async () => {
    const [first] = ids as [string];
    expect(await resolveIdPrefix(db, 'version', first.slice(0, 12).toUpperCase())).toEqual({ kind: 'unique', id: first });
    for (const id of ['beef01' + '0'.repeat(58), 'beef02' + '0'.repeat(58)]) {
      await db.environmentVersion.create({ data: { id, name: id, source: 'import', taskToml: '', instruction: '' } });
    }
    expect(await resolveIdPrefix(db, 'version', 'beef')).toEqual({ kind: 'ambiguous', ids: ['beef01' + '0'.repeat(58), 'beef02' + '0'.repeat(58)] });
    expect(await resolveIdPrefix(db, 'version', 'beef02')).toEqual({ kind: 'unique', id: 'beef02' + '0'.repeat(58) });
    expect(await resolveIdPrefix(db, 'version', first.slice(0, 3))).toEqual({ kind: 'none' });
    expect(await resolveIdPrefix(db, 'version', 'zzzzzzzz')).toEqual({ kind: 'none' });
    expect(await resolveIdPrefix(db, 'generation', 'ab%_')).toEqual({ kind: 'none' });
  });
});
