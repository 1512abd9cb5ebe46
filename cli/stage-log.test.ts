import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendStage, formatStages, parseStages, readStages, stageLogPath, timeStage } from './stage-log.ts';

const dirs: string[] = [];
function logIn(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'envolve-stage-log-'));
  dirs.push(dir);
  return path.join(dir, 'nested', 'stages.tsv');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the stage log', () => {
  it('appends one tab-separated line per stage, in the format scripts/common.sh writes, creating its directory', () => {
    const log = logIn();
    appendStage(log, { stage: 'base image', status: 'cached', ms: 812.4 });
    appendStage(log, { stage: 'import\texamples', status: 'ran', ms: 3021 });
    expect(readFileSync(log, 'utf8')).toBe('base image\tcached\t812\nimport examples\tran\t3021\n');
    expect(readStages(log)).toEqual([
      { stage: 'base image', status: 'cached', ms: 812 },
      { stage: 'import examples', status: 'ran', ms: 3021 },
    ]);
  });

  it('reads the shell stages and skips lines that are not stage rows', () => {
    expect(parseStages('install\tcached\t12\nbuild\tran\t93012\nbroken\tran\nodd\tmaybe\t5\n\n')).toEqual([
      { stage: 'install', status: 'cached', ms: 12 },
      { stage: 'build', status: 'ran', ms: 93012 },
    ]);
  });

  it('has no rows when the log does not exist', () => {
    expect(readStages(logIn())).toEqual([]);
  });

  it('prints a table of the stages with their wall time in seconds and the total', () => {
    const text = formatStages(
      [
        { stage: 'install', status: 'cached', ms: 40 },
        { stage: 'first page', status: 'ran', ms: 7250 },
      ],
      61_049,
    );
    expect(text.split('\n')).toEqual(['STAGE       STATUS  WALL TIME', 'install     cached  0.0 s', 'first page  ran     7.3 s', 'total               61.0 s']);
    expect(formatStages([])).toBe('STAGE  STATUS  WALL TIME');
  });

  it('times a stage as ran or cached, records a failure and rethrows it', async () => {
    const log = logIn();
    expect(
      await timeStage(
        log,
        'base image',
        async () => ({ built: false }),
        (b) => !b.built,
      ),
    ).toEqual({ built: false });
    await timeStage(
      log,
      'migrate',
      async () => ['0001_init'],
      (applied) => applied.length === 0,
    );
    await expect(
      timeStage(log, 'import', async () => {
        throw new Error('no such directory');
      }),
    ).rejects.toThrow('no such directory');
    expect(readStages(log).map(({ stage, status }) => [stage, status])).toEqual([
      ['base image', 'cached'],
      ['migrate', 'ran'],
      ['import', 'failed'],
    ]);
  });

  it('writes nothing without a log, and the log is named by ENVOLVE_STAGE_LOG', async () => {
    const log = logIn();
    expect(await timeStage(null, 'migrate', async () => 7)).toBe(7);
    expect(readStages(log)).toEqual([]);
    expect(stageLogPath({ ENVOLVE_STAGE_LOG: log })).toBe(log);
    expect(stageLogPath({})).toBeNull();
  });
});
