import { describe, expect, it } from 'vitest';
import { bundleOf, validTaskFiles } from '../../test/env/task-fixtures.ts';
import { formatProblem } from './problems.ts';
import { validateBundle } from './validate-bundle.ts';

function errorsOf(files: Parameters<typeof bundleOf>[0], limits?: Parameters<typeof validateBundle>[1]): string[] {
  return validateBundle(bundleOf(files), limits)
    .filter((p) => p.severity === 'error')
    .map(formatProblem);
}

describe('validateBundle', () => {
  it('accepts a complete task without problems', () => {
    expect(validateBundle(bundleOf(validTaskFiles()))).toEqual([]);
  });

  it.each(['task.toml', 'instruction.md', 'environment/Dockerfile', 'tests/test.sh'])('requires %s', (path) => {
    const files = validTaskFiles();
    delete files[path];
    expect(errorsOf(files)).toEqual([`${path}: required file is missing`]);
  });

  it('accepts a task without solution/solve.sh but warns that it has no oracle', () => {
    const files = validTaskFiles();
    delete files['solution/solve.sh'];
    const problems = validateBundle(bundleOf(files));
    expect(problems).toEqual([{ severity: 'warning', path: 'solution/solve.sh', message: expect.stringContaining('no oracle') }]);
  });

  it('reports unparsable task.toml with line information', () => {
    expect(errorsOf({ ...validTaskFiles(), 'task.toml': '[metadata\n' })).toEqual([expect.stringMatching(/^task\.toml: invalid TOML at line 1, column \d+/)]);
  });

  it('rejects NUL bytes and invalid UTF-8 where text is required', () => {
    const errors = errorsOf({
      ...validTaskFiles(),
      'instruction.md': Buffer.from('Do the thing\u0000\u0000\u0001'),
      'solution/solve.sh': { content: Buffer.from([0x23, 0x21, 0xff, 0xfe, 0x0a]), executable: true },
    });
    expect(errors).toEqual([
      'instruction.md: contains NUL bytes; a text file is required here',
      'solution/solve.sh: is not valid UTF-8; a text file is required here',
    ]);
  });

  it('allows binary data files', () => {
    const files = { ...validTaskFiles(), 'environment/data.bin': Buffer.from([0, 1, 2, 255, 0]) };
    expect(errorsOf(files)).toEqual([]);
  });

  it('rejects an empty instruction', () => {
    expect(errorsOf({ ...validTaskFiles(), 'instruction.md': '  \n' })).toEqual(['instruction.md: is empty']);
  });

  it('enforces per-file and per-task size limits', () => {
    const files = { ...validTaskFiles(), 'environment/a.csv': 'x'.repeat(2000), 'environment/b.csv': 'y'.repeat(900) };
    expect(errorsOf(files, { maxFileBytes: 1000, maxTaskBytes: 100_000 })).toEqual(['environment/a.csv: file is 2.0 KiB, over the 1000 B per-file limit']);
    expect(errorsOf(files, { maxTaskBytes: 2500 })).toEqual([expect.stringMatching(/^task is .* over the 2\.4 KiB per-task limit$/)]);
  });

  it('rejects unsafe, duplicate and conflicting paths', () => {
    const bundle = bundleOf(validTaskFiles());
    const extra = (path: string) => ({ path, content: Buffer.from('x'), executable: false });
    const problems = validateBundle({
      ...bundle,
      files: [...bundle.files, extra('../escape'), extra('/etc/passwd'), extra('tests/test.sh'), extra('tests/test.sh/inner')],
    }).map(formatProblem);
    expect(problems).toEqual(
      expect.arrayContaining([
        "../escape: '..' segment escapes the task directory",
        '/etc/passwd: absolute path',
        'tests/test.sh: appears twice',
        'tests/test.sh: is a file but also the directory of tests/test.sh/inner',
      ]),
    );
  });

  it('warns when the verifier never mentions a reward file', () => {
    const problems = validateBundle(bundleOf({ ...validTaskFiles(), 'tests/test.sh': '#!/bin/bash\nexit 0\n' }));
    expect(problems.map((p) => [p.severity, p.path])).toEqual([['warning', 'tests/test.sh']]);
  });
});
