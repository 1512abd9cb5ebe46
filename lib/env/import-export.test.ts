import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { tarEntriesOf, validTaskFiles, withTempDir, writeTar, writeTask } from '../../test/env/task-fixtures.ts';
import { settingsFrom } from '../config/settings.ts';
import { exportVersion } from './export.ts';
import { importPath } from './import.ts';
import { getVersion } from './store.ts';

const EXAMPLES = join(import.meta.dirname, '../../examples/tasks');

describe('import and export', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await createTestDb();
  });
  afterAll(async () => {
    await testDb.cleanup();
  });

  const rowCounts = async () => ({
    versions: await testDb.db.environmentVersion.count(),
    files: await testDb.db.environmentFile.count(),
    blobs: await testDb.db.blob.count(),
  });

  it('imports the shipped examples as seeds with an oracle', async () => {
    const results = await importPath(testDb.db, EXAMPLES);
    expect(results.map((r) => [r.name, r.ok, r.hasOracle, r.errors, r.warnings])).toEqual([
      ['access-log-report', true, true, [], []],
      ['dependency-audit', true, true, [], []],
      ['payments-reconciliation', true, true, [], []],
      ['seed-ledger-sql', true, true, [], []],
      ['seed-logs-awk', true, true, [], []],
      ['seed-telemetry-jq', true, true, [], []],
    ]);
    const version = await getVersion(testDb.db, results[0]!.versionId!);
    expect(version).toMatchObject({ name: 'access-log-report', source: 'import', metadata: { kind: 'seed', generation: 0 } });
  });

  it('round-trips: import, export, import gives the same hash and keeps metadata and exec bits', async () => {
    await withTempDir(async (tmp) => {
      const [first] = await importPath(testDb.db, join(EXAMPLES, 'dependency-audit'));
      const out = join(tmp, 'exported');
      await exportVersion(testDb.db, first!.versionId!, out);
      expect((await stat(join(out, 'solution/solve.sh'))).mode & 0o777).toBe(0o755);
      expect((await stat(join(out, 'task.toml'))).mode & 0o777).toBe(0o644);
      const sidecar = JSON.parse(await readFile(join(out, 'envolve.json'), 'utf8'));
      expect(sidecar).toMatchObject({ format: 'envolve-metadata/1', versionId: first!.versionId, metadata: { kind: 'seed' } });

      const before = await rowCounts();
      const [again] = await importPath(testDb.db, out);
      expect(again).toMatchObject({ ok: true, versionId: first!.versionId, alreadyStored: true, warnings: [] });
      expect(await rowCounts()).toEqual(before);
    });
  });

  it('reads back envolve.json metadata and warns when the task changed since export', async () => {
    await withTempDir(async (tmp) => {
      const [seed] = await importPath(testDb.db, await writeTask(join(tmp, 'src'), validTaskFiles()));
      const out = join(tmp, 'out');
      await exportVersion(testDb.db, seed!.versionId!, out);
      const sidecarPath = join(out, 'envolve.json');
      const sidecar = JSON.parse(await readFile(sidecarPath, 'utf8'));
      sidecar.metadata = { kind: 'evolved', generation: 2, parents: [seed!.versionId] };
      await writeFile(sidecarPath, JSON.stringify(sidecar));
      await writeFile(join(out, 'instruction.md'), 'Write hello twice to /app/out.txt.\n');

      const [changed] = await importPath(testDb.db, out);
      expect(changed!.ok).toBe(true);
      expect(changed!.versionId).not.toBe(seed!.versionId);
      expect(changed!.warnings).toEqual([expect.stringContaining('changed since it was exported')]);
      expect((await getVersion(testDb.db, changed!.versionId!))!.metadata).toEqual(sidecar.metadata);
    });
  });

  it('refuses a non-empty export target unless overwriting a task directory', async () => {
    await withTempDir(async (tmp) => {
      const [seed] = await importPath(testDb.db, join(EXAMPLES, 'access-log-report'));
      const id = seed!.versionId!;
      const notes = join(tmp, 'notes');
      await mkdir(notes);
      await writeFile(join(notes, 'todo.txt'), 'keep me');
      await expect(exportVersion(testDb.db, id, notes)).rejects.toThrow(/not empty/);
      await expect(exportVersion(testDb.db, id, notes, { overwrite: true })).rejects.toThrow(/does not look like a task directory/);
      expect(await readFile(join(notes, 'todo.txt'), 'utf8')).toBe('keep me');

      const task = join(tmp, 'task');
      await exportVersion(testDb.db, id, task);
      await writeFile(join(task, 'stale.txt'), 'from an older export');
      await exportVersion(testDb.db, id, task, { overwrite: true });
      await expect(stat(join(task, 'stale.txt'))).rejects.toThrow();
      const [reimported] = await importPath(testDb.db, task);
      expect(reimported!.versionId).toBe(id);
    });
  });

  it('reports errors per task, stores nothing for a bad task and still imports the good ones', async () => {
    await withTempDir(async (tmp) => {
      const root = join(tmp, 'collection');
      await writeTask(join(root, 'a-good'), validTaskFiles());
      const noTests = validTaskFiles();
      delete noTests['tests/test.sh'];
      await writeTask(join(root, 'b-no-tests'), { ...noTests, 'environment/unique-data.txt': 'only in the bad task' });
      await writeTask(join(root, 'c-bad-toml'), { ...validTaskFiles(), 'task.toml': 'version = "1.0"\n[verifier\n' });
      await writeTask(join(root, 'd-binary'), { ...validTaskFiles(), 'instruction.md': Buffer.from('Do it\u0000\u0000') });
      const escaping = await writeTask(join(root, 'e-symlink'), validTaskFiles());
      await symlink('/etc/passwd', join(escaping, 'environment/passwd'));
      await writeTask(join(root, 'f-huge'), { ...validTaskFiles(), 'environment/big.bin': Buffer.alloc(3000) });
      const noOracle = validTaskFiles();
      delete noOracle['solution/solve.sh'];
      await writeTask(join(root, 'nested/g-no-oracle'), noOracle);

      const before = await rowCounts();
      const results = await importPath(testDb.db, root, { limits: { maxFileBytes: 2048 } });
      expect(results.map((r) => [r.name, r.ok, r.errors])).toEqual([
        ['a-good', true, []],
        ['b-no-tests', false, ['tests/test.sh: required file is missing']],
        ['c-bad-toml', false, [expect.stringMatching(/^task\.toml: invalid TOML at line 2, column \d+/)]],
        ['d-binary', false, ['instruction.md: contains NUL bytes; a text file is required here']],
        ['e-symlink', false, ["environment/passwd: symbolic link to '/etc/passwd' points outside the task directory"]],
        ['f-huge', false, ['environment/big.bin: file is 2.9 KiB, over the 2.0 KiB per-file limit']],
        ['g-no-oracle', true, []],
      ]);
      expect(results.at(-1)!.hasOracle).toBe(false);
      expect(results.at(-1)!.warnings).toEqual([expect.stringMatching(/^solution\/solve\.sh: missing: the task has no oracle/)]);

      // Only the two good tasks were added; 'a-good' shares every blob with earlier fixtures.
      const after = await rowCounts();
      expect(after.versions - before.versions).toBe(1 + (results[0]!.alreadyStored ? 0 : 1));
      const stray = await testDb.db.blob.findMany({ where: { size: 'only in the bad task'.length } });
      expect(stray.filter((b) => Buffer.from(b.content).toString() === 'only in the bad task')).toEqual([]);
    });
  });

  it('imports tasks from a .tar.gz and reports a malicious task in it without stopping the others', async () => {
    await withTempDir(async (tmp) => {
      const file = await writeTar(
        join(tmp, 'tasks.tar.gz'),
        [
          ...tarEntriesOf({ ...validTaskFiles(), 'instruction.md': 'Archived task.\n' }, 'tasks/ok/'),
          ...tarEntriesOf(validTaskFiles(), 'tasks/evil/'),
          { name: 'tasks/evil/../../../tmp/pwned', content: 'x' },
          { name: 'tasks/evil/environment/key', type: 'symlink', linkname: '/root/.ssh/id_rsa' },
          { name: '/etc/cron.d/pwned', content: 'x' },
        ],
        true,
      );
      const results = await importPath(testDb.db, file);
      expect(results.map((r) => [r.name, r.ok, r.errors])).toEqual([
        ['tasks.tar.gz', false, ['entry outside any task: /etc/cron.d/pwned: absolute path in archive']],
        [
          'evil',
          false,
          [
            "tasks/evil/../../../tmp/pwned: '..' segment escapes the task directory",
            "environment/key: symbolic link entry (to '/root/.ssh/id_rsa') is not allowed",
          ],
        ],
        ['ok', true, []],
      ]);
      expect(await getVersion(testDb.db, results[2]!.versionId!)).toMatchObject({ name: 'ok' });
    });
  });

  it('refuses a task asking for more than any container can take, naming the ceiling, and warns about one over the ceiling', async () => {
    await withTempDir(async (tmp) => {
      const ceilings = settingsFrom({ ENVOLVE_MAX_CPUS: '2', ENVOLVE_MAX_MEMORY_MB: '16384' }).sandbox.ceilings;
      const base = validTaskFiles();
      const toml = (environment: string) => `${base['task.toml']}\n[environment]\n${environment}\n`;
      const absurd = await writeTask(join(tmp, 'absurd'), { ...base, 'task.toml': toml('memory_mb = 99999999999'), 'instruction.md': 'Absurd memory.\n' });
      const greedy = await writeTask(join(tmp, 'greedy'), { ...base, 'task.toml': toml('cpus = 100000'), 'instruction.md': 'Many CPUs.\n' });

      const before = await rowCounts();
      const [refused] = await importPath(testDb.db, absurd, { ceilings });
      expect(refused!.ok).toBe(false);
      expect(refused!.versionId).toBeUndefined();
      expect(refused!.errors).toEqual([
        expect.stringMatching(/^task\.toml: .*memory_mb: 99999999999 MB is more than any container can take.*16384 MB \(ENVOLVE_MAX_MEMORY_MB\)/),
      ]);
      expect((await rowCounts()).versions).toBe(before.versions);

      const [imported] = await importPath(testDb.db, greedy, { ceilings });
      expect(imported).toMatchObject({ ok: true, errors: [] });
      expect(imported!.warnings).toEqual([
        "task.toml: [environment] cpus = 100000 is more than this deployment's ceiling: its trials run with 2 CPUs (ENVOLVE_MAX_CPUS)",
      ]);
    });
  });

  it('says clearly when a path holds no task', async () => {
    await withTempDir(async (tmp) => {
      await mkdir(join(tmp, 'empty/sub'), { recursive: true });
      await expect(importPath(testDb.db, join(tmp, 'empty'))).rejects.toThrow(/no task found under/);
      await expect(importPath(testDb.db, join(tmp, 'missing'))).rejects.toThrow(/no such file or directory/);
    });
  });
});
