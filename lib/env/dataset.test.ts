import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTempDir } from '../../test/env/task-fixtures.ts';
import { createTestDb, type TestDb } from '../db/test-db.ts';
import { findOrCreateLineage } from '../evolution/lineage.ts';
import { holdOut } from '../scheduler/held-out.ts';
import { lineageFrontierVersions } from '../scheduler/frontier.ts';
import { exportDataset, registrySchema } from './dataset.ts';
import { importCollection, importPath } from './import.ts';

const EXAMPLES = join(import.meta.dirname, '../../examples/tasks');

describe('Harbor datasets', () => {
  let source: TestDb;
  let target: TestDb;
  let versions: Record<string, string>;
  beforeAll(async () => {
    source = await createTestDb();
    target = await createTestDb();
    const imported = await importPath(source.db, EXAMPLES);
    versions = Object.fromEntries(imported.map((r) => [r.name, r.versionId!]));
  });
  afterAll(async () => {
    await source.cleanup();
    await target.cleanup();
  });

  it("exports a lineage's frontier and chosen versions; the registry entry is Harbor's format; re-import gives the same content hashes", async () => {
    const lineage = await findOrCreateLineage(source.db, versions['access-log-report']!, {
      axisPolicy: { kind: 'fixed', axis: 'length' },
      effort: 'low',
      synthesiser: 'procedural',
      seed: 1,
    });
    const frontier = await lineageFrontierVersions(source.db, [lineage.row.id]);
    expect(frontier).toEqual([versions['access-log-report']]); // nothing released yet: the seed
    await withTempDir(async (tmp) => {
      const out = join(tmp, 'dataset');
      const result = await exportDataset(source.db, out, {
        name: 'envolve-export',
        versionIds: [...frontier, versions['dependency-audit']!, versions['seed-logs-awk']!],
      });
      const registry = registrySchema.parse(JSON.parse(await readFile(join(out, 'registry.json'), 'utf8')));
      expect(registry).toEqual([
        {
          name: 'envolve-export',
          version: '1.0',
          description: 'Exported by Envolve: 3 environment version(s)',
          tasks: [
            { name: 'access-log-report', path: 'access-log-report' },
            { name: 'dependency-audit', path: 'dependency-audit' },
            { name: 'seed-logs-awk', path: 'seed-logs-awk' },
          ],
          metrics: [],
        },
      ]);
      expect(result.tasks.map((t) => t.versionId)).toEqual([versions['access-log-report'], versions['dependency-audit'], versions['seed-logs-awk']]);

      // In by the dataset directory and by the registry file: the same versions, byte for byte.
      const byDir = await importCollection(target.db, out);
      expect(byDir.summary).toBe('3 imported, 0 refused');
      expect(byDir.results.map((r) => r.versionId)).toEqual(result.tasks.map((t) => t.versionId));
      const byRegistry = await importCollection(target.db, join(out, 'registry.json'));
      expect(byRegistry.results.map((r) => [r.versionId, r.alreadyStored])).toEqual(result.tasks.map((t) => [t.versionId, true]));
    });
  });

  it('a training export never carries held-out or compromised versions; an evaluation export may carry held-out ones', async () => {
    await holdOut(source.db, { set: 'eval-a', versionIds: [versions['seed-telemetry-jq']!] });
    await source.db.environmentVersion.update({ where: { id: versions['seed-ledger-sql']! }, data: { compromisedAt: new Date() } });
    await withTempDir(async (tmp) => {
      await expect(exportDataset(source.db, join(tmp, 'a'), { name: 'x', versionIds: [versions['seed-telemetry-jq']!] })).rejects.toThrow(
        `refusing to export: ${versions['seed-telemetry-jq']!.slice(0, 12)} is held out (set eval-a) (a training export never carries these)`,
      );
      await expect(exportDataset(source.db, join(tmp, 'b'), { name: 'x', versionIds: [versions['seed-ledger-sql']!], purpose: 'evaluation' })).rejects.toThrow(
        /is flagged as compromised/,
      );
      const evaluation = await exportDataset(source.db, join(tmp, 'c'), { name: 'x', versionIds: [versions['seed-telemetry-jq']!], purpose: 'evaluation' });
      expect(evaluation.tasks).toHaveLength(1);
    });
  });

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
