import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { bundleOf, validTaskFiles, type TaskFiles } from '../../test/env/task-fixtures.ts';
import { contentHash } from './content-hash.ts';
import { getVersion, InvalidBundleError, listVersions, loadBundle, resolveVersionId, storeBundle } from './store.ts';

describe('store', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await createTestDb();
  });
  afterAll(async () => {
    await testDb.cleanup();
  });

  it('stores a bundle under its content hash and loads it back identically', async () => {
    const bundle = bundleOf(validTaskFiles(), 'hello');
    const id = await storeBundle(testDb.db, bundle, { source: 'import', metadata: { generation: 0 } });
    expect(id).toBe(contentHash(bundle));
    expect(await loadBundle(testDb.db, id)).toEqual(bundle);
    expect(await getVersion(testDb.db, id)).toMatchObject({ id, name: 'hello', source: 'import', metadata: { generation: 0 }, fileCount: 5 });
  });

  it('is idempotent: the same content gives the same id and no new rows', async () => {
    const { db } = testDb;
    const bundle = bundleOf(validTaskFiles(), 'hello');
    const counts = async () => [await db.environmentVersion.count(), await db.environmentFile.count(), await db.blob.count()];
    const first = await storeBundle(db, bundle, { source: 'import' });
    const before = await counts();
    const again = await storeBundle(db, { ...bundle, name: 'renamed' }, { source: 'evolution', metadata: { generation: 9 } });
    expect(again).toBe(first);
    expect(await counts()).toEqual(before);
    expect(await getVersion(db, first)).toMatchObject({ name: 'hello', source: 'import' });
  });

  it('stores identical file contents once across versions', async () => {
    const { db } = testDb;
    const blobsBefore = await db.blob.count();
    await storeBundle(db, bundleOf({ ...validTaskFiles(), 'instruction.md': 'Write hello to /app/out.txt, please.\n' }), { source: 'evolution' });
    expect(await db.blob.count()).toBe(blobsBefore + 1);
  });

  it('refuses an invalid bundle and stores nothing', async () => {
    const { db } = testDb;
    const versionsBefore = await db.environmentVersion.count();
    const blobsBefore = await db.blob.count();
    const files: TaskFiles = { ...validTaskFiles(), 'environment/new-data.txt': 'never stored' };
    delete files['tests/test.sh'];
    await expect(storeBundle(db, bundleOf(files), { source: 'import' })).rejects.toBeInstanceOf(InvalidBundleError);
    expect(await db.environmentVersion.count()).toBe(versionsBefore);
    expect(await db.blob.count()).toBe(blobsBefore);
  });

  it('detects stored files that no longer match the version id', async () => {
    const { db } = testDb;
    const bundle = bundleOf({ ...validTaskFiles(), 'environment/seed.txt': 'tamper me' });
    const id = await storeBundle(db, bundle, { source: 'import' });
    await db.environmentFile.update({ where: { versionId_path: { versionId: id, path: 'environment/seed.txt' } }, data: { executable: true } });
    await expect(loadBundle(db, id)).rejects.toThrow(/is corrupt/);
  });

  it('lists versions and resolves short ids', async () => {
    const { db } = testDb;
    const versions = await listVersions(db);
    expect(versions.length).toBeGreaterThanOrEqual(3);
    expect(await listVersions(db, { name: 'hello' })).toHaveLength(1);
    const id = versions[0]!.id;
    expect(await resolveVersionId(db, id.slice(0, 12))).toBe(id);
    await expect(resolveVersionId(db, 'ffffffffffff')).rejects.toThrow(/no environment version matches/);
    await expect(resolveVersionId(db, 'not-hex')).rejects.toThrow(/not a version id/);
  });
});
