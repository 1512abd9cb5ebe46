import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validTaskFiles, withTempDir, writeTask } from '../../test/env/task-fixtures.ts';
import { formatProblem } from './problems.ts';
import { readTaskDir } from './read-task-dir.ts';

describe('readTaskDir', () => {
  it('reads every file, sorted, with executable bits and the directory name', async () => {
    await withTempDir(async (tmp) => {
      const dir = await writeTask(join(tmp, 'hello-task'), validTaskFiles());
      const { bundle, problems } = await readTaskDir(dir);
      expect(problems).toEqual([]);
      expect(bundle.name).toBe('hello-task');
      expect(bundle.files.map((f) => [f.path, f.executable])).toEqual([
        ['environment/Dockerfile', false],
        ['instruction.md', false],
        ['solution/solve.sh', true],
        ['task.toml', false],
        ['tests/test.sh', true],
      ]);
      expect(bundle.files[1]!.content.toString()).toBe('Write hello to /app/out.txt.\n');
    });
  });

  it('reports a symlink escaping the task instead of following it', async () => {
    await withTempDir(async (tmp) => {
      const dir = await writeTask(join(tmp, 't'), validTaskFiles());
      await writeFile(join(tmp, 'secret'), 'top secret');
      await symlink('../../secret', join(dir, 'environment/data.txt'));
      await symlink('/etc', join(dir, 'etc'));
      const { bundle, problems } = await readTaskDir(dir);
      expect(problems.map(formatProblem)).toEqual([
        "environment/data.txt: symbolic link to '../../secret' points outside the task directory",
        "etc: symbolic link to '/etc' points outside the task directory",
      ]);
      expect(bundle.files.some((f) => f.content.toString().includes('top secret'))).toBe(false);
    });
  });

  it('reports a symlink inside the task too, since a bundle holds only regular files', async () => {
    await withTempDir(async (tmp) => {
      const dir = await writeTask(join(tmp, 't'), validTaskFiles());
      await symlink('instruction.md', join(dir, 'README.md'));
      const { problems } = await readTaskDir(dir);
      expect(problems.map(formatProblem)).toEqual([expect.stringMatching(/^README\.md: symbolic link to 'instruction\.md' \(links are not allowed/)]);
    });
  });

  it('skips a file over the per-file limit without reading it', async () => {
    await withTempDir(async (tmp) => {
      const dir = await writeTask(join(tmp, 't'), validTaskFiles());
      await writeFile(join(dir, 'environment/huge.log'), Buffer.alloc(64 * 1024, 'a'));
      const { bundle, problems } = await readTaskDir(dir, { maxFileBytes: 32 * 1024 });
      expect(problems.map(formatProblem)).toEqual(['environment/huge.log: file is 64.0 KiB, over the 32.0 KiB per-file limit']);
      expect(bundle.files.map((f) => f.path)).not.toContain('environment/huge.log');
    });
  });

  it('stops at the per-task limit', async () => {
    await withTempDir(async (tmp) => {
      const dir = await writeTask(join(tmp, 't'), validTaskFiles());
      await mkdir(join(dir, 'environment/data'), { recursive: true });
      for (const n of [1, 2, 3]) await writeFile(join(dir, `environment/data/${n}.bin`), Buffer.alloc(1000));
      const { problems } = await readTaskDir(dir, { maxTaskBytes: 2500 });
      expect(problems.map(formatProblem)).toEqual(['task is over the 2.4 KiB per-task limit']);
    });
  });
});
