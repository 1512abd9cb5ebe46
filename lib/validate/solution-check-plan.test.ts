// The solution checks' plan and scripts: which runs, in which order, the trial bundle that keeps
// the image build cached, and the unwrap pass run for real on a directory of wrapped files.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { BundleFile, TaskBundle } from '../bundle/index.ts';
import {
  ANCESTOR_DIR,
  CHILD_TEST,
  planSolutionChecks,
  runCommand,
  trialBundle,
  unwrapScript,
  verifierWrapper,
  type SolutionCheckInput,
} from './solution-check-plan.ts';

const text = (path: string, content: string | Buffer, executable = false): BundleFile => ({ path, content: Buffer.from(content), executable });

const bundle: TaskBundle = {
  name: 'candidate',
  files: [
    text('environment/Dockerfile', 'FROM envolve/base:bookworm\n'),
    text('solution/near-misses/s2.naive-split.sh', 'echo 1\n'),
    text('solution/near-misses/s1.first-file-only.sh', 'echo 2\n'),
    text('solution/near-misses/README', 'not a near miss'),
    text('solution/solve.sh', 'echo ok\n', true),
    text('task.toml', ''),
    text('tests/expected.json', '{}'),
    text('tests/test.sh', 'echo test\n', true),
  ],
};
const input: SolutionCheckInput = {
  ancestors: [
    { versionId: 'p'.repeat(64), label: 'generation 2', files: [text('solve.sh', 'echo parent\n', true), text('helper.py', 'print(1)\n')] },
    { versionId: 'n'.repeat(64), label: 'generation 1', files: [text('README.md', 'no solution here')] },
    { versionId: 's'.repeat(64), label: 'the seed', files: [text('solve.sh', 'echo seed\n', true)] },
  ],
  changedSteps: ['s2'],
};

describe('planSolutionChecks', () => {
  it('runs the ancestors as they are, then the near misses, then the ancestors on unwrapped data', () => {
    const plan = planSolutionChecks(bundle, input);
    expect(plan.runs.map((r) => [r.id, r.kind, r.pass, r.script])).toEqual([
      ['r1', 'counter-check', 'as-is', `/${ANCESTOR_DIR}/1/solve.sh`],
      ['r2', 'counter-check', 'as-is', `/${ANCESTOR_DIR}/2/solve.sh`],
      ['r3', 'near-miss', 'as-is', '/solution/near-misses/s1.first-file-only.sh'],
      ['r4', 'near-miss', 'as-is', '/solution/near-misses/s2.naive-split.sh'],
      ['r5', 'counter-check', 'unwrapped', `/${ANCESTOR_DIR}/1/solve.sh`],
      ['r6', 'counter-check', 'unwrapped', `/${ANCESTOR_DIR}/2/solve.sh`],
    ]);
    expect(plan.unwrapBefore).toBe('r5');
    // An ancestor without a solve.sh has nothing to run: the seed is the second one run.
    expect(plan.runs[1]!.ancestor).toEqual({ distance: 2, versionId: 's'.repeat(64), label: 'the seed' });
    expect(plan.runs[3]!.nearMiss).toEqual({ file: 's2.naive-split.sh', stepId: 's2', mistake: 'naive-split' });
  });

  it('has no unwrap pass without ancestors, and no runs without near misses either', () => {
    expect(planSolutionChecks(bundle, null)).toMatchObject({ unwrapBefore: null, runs: [{ kind: 'near-miss' }, { kind: 'near-miss' }] });
    const bare = { ...bundle, files: bundle.files.filter((f) => !f.path.includes('near-misses')) };
    expect(planSolutionChecks(bare, { ancestors: [], changedSteps: null }).runs).toEqual([]);
  });
});

describe('trialBundle', () => {
  it('wraps the tests, adds the ancestors beside the solution and leaves environment/ as it is', () => {
    const plan = planSolutionChecks(bundle, input);
    const trial = trialBundle(bundle, input, plan, 120);
    const paths = trial.files.map((f) => f.path);
    expect(paths).toContain(CHILD_TEST);
    expect(paths).toContain(`${ANCESTOR_DIR}/1/helper.py`);
    expect(paths).toContain(`${ANCESTOR_DIR}/2/solve.sh`);
    expect(paths).not.toContain(`${ANCESTOR_DIR}/3/solve.sh`);
    expect(trial.files.find((f) => f.path === CHILD_TEST)!.content.toString()).toBe('echo test\n');
    const wrapper = trial.files.find((f) => f.path === 'tests/test.sh')!.content.toString();
    expect(wrapper).toContain('for id in r1 r2 r3 r4 r5 r6; do');
    expect(wrapper).toContain(`timeout -k 5 120 bash /${CHILD_TEST}`);
    const environment = (b: TaskBundle) => b.files.filter((f) => f.path.startsWith('environment/'));
    expect(environment(trial)).toEqual(environment(bundle));
    expect(paths).toEqual([...paths].sort());
  });

  it('puts each run under its own time budget and quotes its script', () => {
    const command = runCommand({ id: 'r1', kind: 'near-miss', label: 'x', script: "/solution/near-misses/s1.it's.sh", pass: 'as-is' }, 90);
    expect(command).toContain(`timeout -k 5 90 bash '/solution/near-misses/s1.it'\\''s.sh'`);
    expect(verifierWrapper({ runs: [], unwrapBefore: null }, 5)).toContain('"runs": %d');
  });
});

describe('unwrapScript', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('undoes gzip, base64, tar.gz, a BOM, CRLF, the export banner and # note: lines, and nothing else', () => {
    dir = mkdtempSync(join(tmpdir(), 'envolve-unwrap-'));
    const data = join(dir, 'data');
    execFileSync('mkdir', ['-p', join(data, 's1'), join(data, 's2'), join(data, 'archive')]);
    writeFileSync(join(data, 's1', 'ledger.csv.gz'), gzipSync('\uFEFFid,amount\r\n1,2\r\n'));
    writeFileSync(
      join(data, 's2', 'events.log.b64'),
      Buffer.from('Exported by envolve-export 2.3\nLines: 2\n----------\na 1\n# note: checked\nb 2\n').toString('base64'),
    );
    // Wrapped twice: base64 of a gzip.
    writeFileSync(join(data, 's2', 'twice.txt.gz.b64'), gzipSync('twice\n').toString('base64'));
    writeFileSync(join(data, 'keep.txt'), 'x # note: not at the line start\n');
    writeFileSync(join(data, 'binary.bin'), Buffer.from([0, 13, 10, 0xef, 0xbb, 0xbf, 0]));
    execFileSync('bash', [
      '-c',
      `cd "${join(dir, 'src')}" 2>/dev/null || mkdir -p "${join(dir, 'src')}"; printf 'member\\r\\n' > "${join(dir, 'src', 'member.txt')}"; tar -czf "${join(data, 'archive', 'bundle.tar.gz')}" -C "${join(dir, 'src')}" member.txt`,
    ]);
    const log = execFileSync('bash', ['-c', unwrapScript(data)]).toString();

    expect(readFileSync(join(data, 's1', 'ledger.csv'), 'utf8')).toBe('id,amount\n1,2\n');
    expect(readFileSync(join(data, 's2', 'events.log'), 'utf8')).toBe('a 1\nb 2\n');
    expect(readFileSync(join(data, 's2', 'twice.txt'), 'utf8')).toBe('twice\n');
    expect(readFileSync(join(data, 'archive', 'member.txt'), 'utf8')).toBe('member\n');
    expect(readFileSync(join(data, 'keep.txt'), 'utf8')).toBe('x # note: not at the line start\n');
    expect([...readFileSync(join(data, 'binary.bin'))]).toEqual([0, 13, 10, 0xef, 0xbb, 0xbf, 0]);
    expect(readdirSync(join(data, 's2')).sort()).toEqual(['events.log', 'twice.txt']);
    expect(readdirSync(join(data, 'archive'))).toEqual(['member.txt']);
    expect(log).toMatch(/gunzip .*ledger\.csv\.gz/);
    expect(log).toMatch(/removed the banner of .*events\.log/);
  });

  it('keeps a wrapped file whose unwrapped name already exists, and a tar.gz that would overwrite', () => {
    dir = mkdtempSync(join(tmpdir(), 'envolve-unwrap-'));
    writeFileSync(join(dir, 'a.txt'), 'plain\n');
    writeFileSync(join(dir, 'a.txt.gz'), gzipSync('other\n'));
    execFileSync('bash', ['-c', `cd "${dir}" && tar -czf a.tgz a.txt`]);
    const log = execFileSync('bash', ['-c', unwrapScript(dir)]).toString();
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('plain\n');
    expect(readdirSync(dir).sort()).toEqual(['a.tgz', 'a.txt', 'a.txt.gz']);
    expect(log).toMatch(/kept .*a\.txt\.gz/);
    expect(log).toMatch(/kept .*a\.tgz \(extracting it would overwrite a file\)/);
  });
});
