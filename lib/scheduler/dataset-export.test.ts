// The dataset export asks the one servability rule (servable.ts): what a training export may carry
// is what a trainer may be served; an evaluation export may carry held-out versions and nothing
// else the rule refuses. The round trip back in is byte for byte.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleOf, validTaskFiles, withTempDir } from '../../test/env/task-fixtures.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { registrySchema } from '../env/dataset.ts';
import { importCollection, importPath } from '../env/import.ts';
import { storeBundle } from '../env/store.ts';
import { RefusedError } from '../errors/index.ts';
import { findOrCreateLineage } from '../evolution/lineage.ts';
import { GenerationState } from '../states/states.ts';
import { exportDataset } from './dataset-export.ts';
import { lineageFrontierVersions } from './frontier.ts';
import { holdOut } from './held-out.ts';

const EXAMPLES = join(import.meta.dirname, '../../examples/tasks');

describe('Harbor dataset export', () => {
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

  // A stored version of its own content, which an export can load back.
  const storedVersion = (name: string) =>
    storeBundle(source.db, bundleOf({ ...validTaskFiles(), 'instruction.md': `Write hello to /app/out.txt (${name}).\n` }, name), { source: 'import' });

  // A lineage on its own seed with a rejected generation 1 and generation 2 evolved from it.
  async function rejectedBranch(name: string): Promise<{ seed: string; rejected: string; superseded: string }> {
    const db = source.db;
    const seed = await storedVersion(`${name} seed`);
    const lineage = await db.lineage.create({
      data: { name, seedVersionId: seed, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1 },
    });
    const generation = async (number: number, parent: string, state: GenerationState) => {
      const versionId = await storedVersion(`${name} ${state}`);
      await db.generation.create({ data: { lineageId: lineage.id, number, parentVersionId: parent, versionId, axis: 'length', effort: 'low', state } });
      return versionId;
    };
    const rejected = await generation(1, seed, GenerationState.rejected);
    const superseded = await generation(2, rejected, GenerationState.superseded);
    return { seed, rejected, superseded };
  }

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

  it("refuses held-out and flagged versions to a training export with the rule's reasons; an evaluation export carries held-out ones only", async () => {
    const heldOut = versions['seed-telemetry-jq']!;
    const flagged = versions['seed-ledger-sql']!;
    await holdOut(source.db, { set: 'eval-a', versionIds: [heldOut] });
    await source.db.environmentVersion.update({ where: { id: flagged }, data: { compromisedAt: new Date() } });
    await withTempDir(async (tmp) => {
      await expect(exportDataset(source.db, join(tmp, 'a'), { name: 'x', versionIds: [heldOut] })).rejects.toMatchObject({
        code: 'held_out',
        message: `refusing to export: environment version ${heldOut} is held out (set "eval-a"): it is not trained on`,
      });
      await expect(exportDataset(source.db, join(tmp, 'b'), { name: 'x', versionIds: [flagged], purpose: 'evaluation' })).rejects.toMatchObject({
        code: 'flagged',
        message: expect.stringContaining('is flagged as reward-hackable'),
      });
      expect(existsSync(join(tmp, 'a')) || existsSync(join(tmp, 'b'))).toBe(false);
      const evaluation = await exportDataset(source.db, join(tmp, 'c'), { name: 'x', versionIds: [heldOut], purpose: 'evaluation' });
      expect(evaluation.tasks.map((t) => t.versionId)).toEqual([heldOut]);
    });
  });

  it('refuses a version rejected in review and one evolved from it (superseded), in a training and an evaluation export alike', async () => {
    const { seed, rejected, superseded } = await rejectedBranch('export branch');
    await withTempDir(async (tmp) => {
      for (const purpose of ['training', 'evaluation'] as const) {
        const refused = exportDataset(source.db, join(tmp, `rejected-${purpose}`), { name: 'x', versionIds: [rejected], purpose });
        await expect(refused).rejects.toBeInstanceOf(RefusedError);
        await expect(refused).rejects.toMatchObject({
          code: 'rejected',
          message: `refusing to export: environment version ${rejected} was rejected in review (state: rejected): it is not trained on`,
        });
        await expect(exportDataset(source.db, join(tmp, `superseded-${purpose}`), { name: 'x', versionIds: [superseded], purpose })).rejects.toMatchObject({
          code: 'superseded',
          message: `refusing to export: environment version ${superseded} was evolved from a rejected generation (state: superseded): it is not trained on`,
        });
      }
      // With a servable version among them, every refused one is named and nothing is written.
      await expect(exportDataset(source.db, join(tmp, 'mixed'), { name: 'x', versionIds: [seed, rejected, superseded] })).rejects.toMatchObject({
        code: 'not_servable',
        details: {
          purpose: 'training',
          refused: [expect.objectContaining({ versionId: rejected, kind: 'rejected' }), expect.objectContaining({ versionId: superseded, kind: 'superseded' })],
        },
      });
      expect(existsSync(join(tmp, 'mixed'))).toBe(false);

      // The lineage's seed is served: it exports.
      const served = await exportDataset(source.db, join(tmp, 'seed'), { name: 'x', versionIds: [seed] });
      expect(served.tasks.map((t) => t.versionId)).toEqual([seed]);
    });
  });

  it('`envolve dataset export --json` exits 2 on a refused version, printing the refusal with its code; a servable one exports', async () => {
    const { seed, rejected } = await rejectedBranch('cli branch');
    await withTempDir(async (tmp) => {
      const cli = (out: string, versionId: string) =>
        spawnSync(process.execPath, ['bin/envolve.mjs', 'dataset', 'export', '--out', join(tmp, out), '--name', 'x', '--versions', versionId, '--json'], {
          env: { ...process.env, DATABASE_URL: source.url },
          encoding: 'utf8',
        });
      const refused = cli('refused', rejected);
      expect(refused.status).toBe(2);
      const message = `refusing to export: environment version ${rejected} was rejected in review (state: rejected): it is not trained on`;
      expect(JSON.parse(refused.stdout)).toEqual({
        ok: false,
        error: message,
        code: 'rejected',
        details: { purpose: 'training', refused: [{ versionId: rejected, kind: 'rejected', message: message.replace('refusing to export: ', '') }] },
      });
      expect(existsSync(join(tmp, 'refused'))).toBe(false);

      const served = cli('served', seed);
      expect(served.status).toBe(0);
      expect((JSON.parse(served.stdout) as { tasks: Array<{ versionId: string }> }).tasks.map((t) => t.versionId)).toEqual([seed]);
    });
  });
});
