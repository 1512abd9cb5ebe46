import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleOf, tarEntriesOf, validTaskFiles, withTempDir, writeTar } from '../../test/env/task-fixtures.ts';
import { contentHash } from './content-hash.ts';
import { formatProblem } from './problems.ts';
import { readArchive } from './read-archive.ts';

describe('readArchive', () => {
  it('reads a .tar.gz holding one task at its root, named after the archive', async () => {
    await withTempDir(async (tmp) => {
      const file = await writeTar(join(tmp, 'hello-task.tar.gz'), tarEntriesOf(validTaskFiles(), './'), true);
      const { tasks, strayProblems } = await readArchive(file);
      expect(strayProblems).toEqual([]);
      expect(tasks).toHaveLength(1);
      expect(tasks[0]!.problems).toEqual([]);
      expect(tasks[0]!.bundle.name).toBe('hello-task');
      expect(contentHash(tasks[0]!.bundle)).toBe(contentHash(bundleOf(validTaskFiles())));
    });
  });

  it('reads several tasks from a plain .tar and ignores loose files beside them, even big ones', async () => {
    await withTempDir(async (tmp) => {
      const file = await writeTar(join(tmp, 'collection.tar'), [
        { name: 'README.md', content: 'a collection' },
        { name: 'datasets/raw.bin', content: Buffer.alloc(8192) },
        { name: 'tasks/', type: 'directory' },
        ...tarEntriesOf(validTaskFiles(), 'tasks/alpha/'),
        ...tarEntriesOf(validTaskFiles(), 'tasks/beta/'),
      ]);
      const { tasks, strayProblems } = await readArchive(file, { maxFileBytes: 4096 });
      expect(strayProblems).toEqual([]);
      expect(tasks.map((t) => [t.bundle.name, t.bundle.files.length, t.problems.length])).toEqual([
        ['alpha', 5, 0],
        ['beta', 5, 0],
      ]);
      expect(tasks[0]!.bundle.files.find((f) => f.path === 'tests/test.sh')!.executable).toBe(true);
    });
  });

  it("reports '..' and absolute entries in the task they name, and strays outside any task", async () => {
    await withTempDir(async (tmp) => {
      const file = await writeTar(join(tmp, 'evil.tar'), [
        ...tarEntriesOf(validTaskFiles(), 'good/'),
        ...tarEntriesOf(validTaskFiles(), 'bad/'),
        { name: 'bad/../../etc/cron.d/evil', content: 'x' },
        { name: '/bad/environment/abs.txt', content: 'x' },
        { name: '../outside.txt', content: 'x' },
      ]);
      const { tasks, strayProblems } = await readArchive(file);
      expect(tasks.map((t) => [t.bundle.name, t.problems.map(formatProblem)])).toEqual([
        ['bad', ["bad/../../etc/cron.d/evil: '..' segment escapes the task directory", '/bad/environment/abs.txt: absolute path in archive']],
        ['good', []],
      ]);
      expect(strayProblems.map(formatProblem)).toEqual(["../outside.txt: '..' segment escapes the task directory"]);
    });
  });

  it('reports symlink and hard link entries', async () => {
    await withTempDir(async (tmp) => {
      const file = await writeTar(
        join(tmp, 'links.tar.gz'),
        [
          ...tarEntriesOf(validTaskFiles()),
          { name: 'environment/passwd', type: 'symlink', linkname: '/etc/passwd' },
          { name: 'environment/shadow', type: 'link', linkname: '/etc/shadow' },
        ],
        true,
      );
      const { tasks } = await readArchive(file);
      expect(tasks[0]!.problems.map(formatProblem)).toEqual([
        "environment/passwd: symbolic link entry (to '/etc/passwd') is not allowed",
        "environment/shadow: hard link entry (to '/etc/shadow') is not allowed",
      ]);
      expect(tasks[0]!.bundle.files.map((f) => f.path)).not.toContain('environment/passwd');
    });
  });

  it('reports oversized entries and duplicate entries', async () => {
    await withTempDir(async (tmp) => {
      const file = await writeTar(join(tmp, 'big.tar'), [
        ...tarEntriesOf(validTaskFiles()),
        { name: 'environment/huge.bin', content: Buffer.alloc(4096) },
        { name: 'instruction.md', content: 'second copy' },
      ]);
      const { tasks } = await readArchive(file, { maxFileBytes: 1024 });
      expect(tasks[0]!.problems.map(formatProblem)).toEqual([
        'environment/huge.bin: file is 4.0 KiB, over the 1.0 KiB per-file limit',
        'instruction.md: duplicate entry in archive',
      ]);
    });
  });

  it('refuses an archive bigger than the archive limit', async () => {
    await withTempDir(async (tmp) => {
      const file = await writeTar(
        join(tmp, 'bomb.tar.gz'),
        [...tarEntriesOf(validTaskFiles()), { name: 'environment/zeros.bin', content: Buffer.alloc(1024 * 1024) }],
        true,
      );
      await expect(readArchive(file, { maxArchiveBytes: 512 * 1024 })).rejects.toThrow(/archive holds more than 512\.0 KiB/);
    });
  });

  it('says when a file is not a tar archive', async () => {
    await withTempDir(async (tmp) => {
      const file = join(tmp, 'junk.tar');
      await writeFile(file, Buffer.alloc(2048, 7));
      await expect(readArchive(file)).rejects.toThrow(/not a readable tar archive/);
    });
  });
});
