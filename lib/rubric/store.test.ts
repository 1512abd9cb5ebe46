// Versioning of rubric items, the active rubric per lineage and kind, and the version label.
import { describe, expect, it } from 'vitest';
import { createDb, type Db } from '../db/index.ts';
import { dbTest } from '../../test/fixtures/test.ts';
import { BUILTIN_RUBRIC } from './builtin-items.ts';
import { activeRubric, saveRubricItem, setRubricItemActive, syncBuiltinRubric, type RubricItemInput } from './store.ts';
import { rubricVersionLabel, toItemView } from './view.ts';

const item = (key: string, over: Partial<RubricItemInput> = {}): RubricItemInput => ({
  key,
  title: `${key} title`,
  description: 'why',
  check: 'true',
  question: null,
  appliesTo: 'environment',
  ...over,
});

describe('syncBuiltinRubric', () => {
  dbTest('stores every built-in item once; a second sync creates nothing', async ({ db }) => {
    const first = await syncBuiltinRubric(db);
    expect(first.created).toHaveLength(BUILTIN_RUBRIC.length);
    expect(new Set(first.created.map((r) => r.key)).size).toBe(BUILTIN_RUBRIC.length);
    const second = await syncBuiltinRubric(db);
    expect(second).toMatchObject({ created: [], unchanged: BUILTIN_RUBRIC.length, retired: [] });
    expect(await db.rubricItem.count()).toBe(BUILTIN_RUBRIC.length);
  });

  dbTest('a changed item gets a new version; the old one is kept, inactive', async ({ db }) => {
    await syncBuiltinRubric(db, [item('a'), item('b')]);
    const result = await syncBuiltinRubric(db, [item('a', { check: 'exit 0' }), item('b')]);
    expect(result.created.map((r) => [r.key, r.version])).toEqual([['a', 2]]);
    const versions = await db.rubricItem.findMany({ where: { key: 'a' }, orderBy: { version: 'asc' } });
    expect(versions.map((v) => [v.version, v.active, v.check])).toEqual([
      [1, false, 'true'],
      [2, true, 'exit 0'],
    ]);
    expect((await activeRubric(db, { appliesTo: 'environment' })).map((r) => `${r.key}@${r.version}`)).toEqual(['a@2', 'b@1']);
  });

  dbTest('retires built-in keys that are no longer shipped, and leaves a lead-deactivated item off', async ({ db }) => {
    await syncBuiltinRubric(db, [item('a'), item('gone')]);
    const a = (await activeRubric(db, { appliesTo: 'environment' })).find((r) => r.key === 'a')!;
    await setRubricItemActive(db, a.id, false);
    const result = await syncBuiltinRubric(db, [item('a')]);
    expect(result.retired.map((r) => r.key)).toEqual(['gone']);
    expect(await activeRubric(db, { appliesTo: 'environment' })).toEqual([]);
  });
});

describe('activeRubric', () => {
  dbTest('returns global items plus the lineage’s own, for the asked kind and both', async ({ db }) => {
    await saveRubricItem(db, item('env'));
    await saveRubricItem(db, item('plan', { appliesTo: 'plan' }));
    await saveRubricItem(db, item('both', { appliesTo: 'both' }));
    await saveRubricItem(db, item('mine', { scope: 'lineage', lineageId: 'L1', source: 'missed-issue' }));
    await saveRubricItem(db, item('theirs', { scope: 'lineage', lineageId: 'L2' }));
    const keys = async (q: Parameters<typeof activeRubric>[1]) => (await activeRubric(db, q)).map((r) => r.key);
    expect(await keys({ appliesTo: 'environment' })).toEqual(['both', 'env']);
    expect(await keys({ appliesTo: 'plan' })).toEqual(['both', 'plan']);
    expect(await keys({ appliesTo: 'environment', lineageId: 'L1' })).toEqual(['both', 'env', 'mine']);
  });

  dbTest('a new inactive version leaves the older one in force until it is activated', async ({ db }) => {
    await saveRubricItem(db, item('x', { source: 'missed-issue' }));
    const draft = await saveRubricItem(db, { ...item('x', { check: 'false' }), source: 'missed-issue', active: false });
    expect(draft).toMatchObject({ created: true, item: { version: 2, active: false } });
    expect((await activeRubric(db, { appliesTo: 'environment' })).map((r) => r.version)).toEqual([1]);
    await setRubricItemActive(db, draft.item.id, true);
    expect((await activeRubric(db, { appliesTo: 'environment' })).map((r) => r.version)).toEqual([2]);
    expect(await db.rubricItem.count({ where: { key: 'x', active: true } })).toBe(1);
  });

  dbTest('refuses a lineage item without a lineage', async ({ db }) => {
    await expect(saveRubricItem(db, { ...item('y'), scope: 'lineage' })).rejects.toThrow(/needs a lineageId/);
  });
});

describe('rubricVersionLabel and toItemView', () => {
  it('labels an item set by key@version, whatever the order', () => {
    const label = rubricVersionLabel([
      { key: 'a', version: 1 },
      { key: 'b', version: 3 },
    ]);
    expect(label).toMatch(/^r-[0-9a-f]{10}$/);
    expect(
      rubricVersionLabel([
        { key: 'b', version: 3 },
        { key: 'a', version: 1 },
      ]),
    ).toBe(label);
    expect(
      rubricVersionLabel([
        { key: 'a', version: 2 },
        { key: 'b', version: 3 },
      ]),
    ).not.toBe(label);
  });

  dbTest('the label changes when a synced item changes', async ({ db }) => {
    await syncBuiltinRubric(db, [item('a'), item('b')]);
    const before = rubricVersionLabel(await activeRubric(db, { appliesTo: 'environment' }));
    await syncBuiltinRubric(db, [item('a', { title: 'renamed' }), item('b')]);
    expect(rubricVersionLabel(await activeRubric(db, { appliesTo: 'environment' }))).not.toBe(before);
  });

  dbTest('views a row as the synthesiser sees it', async ({ db }) => {
    const { item: row } = await saveRubricItem(db, item('v', { question: 'Is it good?', appliesTo: 'both' }));
    expect(toItemView(row)).toEqual({ id: row.id, key: 'v', title: 'v title', description: 'why', question: 'Is it good?', check: 'true', appliesTo: 'both' });
  });
});

describe('saveRubricItem racing another process', () => {
  // Another connection commits a version of the key between this save's read and its write. On SQLite
  // (WAL) the write then fails at once with SQLITE_BUSY_SNAPSHOT, on PostgreSQL the (key, version)
  // collides: either way the save starts again and lands on top of the other's version.
  dbTest('a version committed between the read and the write is kept, and the save lands after it', async ({ db, testDb }) => {
    await saveRubricItem(db, item('raced'));
    const other = createDb(testDb.url);
    let interleaved = false;
    const racing = db.$extends({
      query: {
        rubricItem: {
          async findFirst({ args, query }) {
            const found = await query(args);
            if (!interleaved) {
              interleaved = true;
              await saveRubricItem(other, item('raced', { check: 'exit 0' }));
            }
            return found;
          },
        },
      },
    }) as unknown as Db;
    try {
      const saved = await saveRubricItem(racing, item('raced', { check: 'exit 1' }));
      expect(interleaved).toBe(true);
      expect(saved).toMatchObject({ created: true, item: { version: 3, check: 'exit 1', active: true } });
      const versions = await db.rubricItem.findMany({ where: { key: 'raced' }, orderBy: { version: 'asc' } });
      expect(versions.map((v) => [v.version, v.check, v.active])).toEqual([
        [1, 'true', false],
        [2, 'exit 0', false],
        [3, 'exit 1', true],
      ]);
    } finally {
      await other.$disconnect();
    }
  });
});
