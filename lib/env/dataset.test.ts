// Harbor registries in (the export and its round trip are lib/scheduler/dataset-export.test.ts).
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTempDir } from '../../test/env/task-fixtures.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { importCollection } from './import.ts';

const EXAMPLES = join(import.meta.dirname, '../../examples/tasks');

describe('Harbor registries in', () => {
  let target: TestDb;
  beforeAll(async () => {
    target = await createTestDb();
  });
  afterAll(() => target.cleanup());

  it('refuses a registry task that lives in git, importing the local ones', async () => {
    await withTempDir(async (tmp) => {
      await cp(join(EXAMPLES, 'seed-logs-awk'), join(tmp, 'tasks/seed-logs-awk'), { recursive: true });
      const registry = [
        {
          name: 'mixed',
          version: '2.0',
          description: 'one local, one remote',
          tasks: [
            { name: 'seed-logs-awk', path: 'tasks/seed-logs-awk' },
            { name: 'remote', git_url: 'https://github.com/example/tasks.git', git_commit_id: 'abc', path: 'tasks/remote' },
          ],
        },
      ];
      await writeFile(join(tmp, 'registry.json'), JSON.stringify(registry));
      const report = await importCollection(target.db, join(tmp, 'registry.json'));
      expect(report.summary).toBe('1 imported, 1 refused');
      expect(report.results[1]!.errors).toEqual(['mixed@2.0: fetched from https://github.com/example/tasks.git; clone it and import the directory']);
    });
  });
});
