// Judging the solution checks' results: the wrapper's result file decoded, each run caught, let
// through or not judged for the right reason, and the verdict and words the modifier is given.
import { describe, expect, it } from 'vitest';
import type { CheckRun } from './solution-check-plan.ts';
import { buildReport, judgeRun, parseResultEnvelope, parseSolutionCheckReport, reportProblems, reportVerdict, type RunFiles } from './solution-check-report.ts';

const ctrf = (steps: Record<string, string>, messages: Record<string, string> = {}) =>
  JSON.stringify({
    results: {
      summary: { tests: Object.keys(steps).length },
      tests: Object.entries(steps).map(([id, status]) => ({ name: `step ${id}`, status, ...(messages[id] ? { message: messages[id] } : {}) })),
    },
  });
const files = (reward: string, steps: Record<string, string>, messages: Record<string, string> = {}): RunFiles => ({
  exit: '0',
  'reward.txt': reward,
  'ctrf.json': ctrf(steps, messages),
});

const nearMiss: CheckRun = {
  id: 'r3',
  kind: 'near-miss',
  label: 'near miss s2.naive-split.sh',
  script: '/solution/near-misses/s2.naive-split.sh',
  pass: 'as-is',
  nearMiss: { file: 's2.naive-split.sh', stepId: 's2', mistake: 'naive-split' },
};
const ancestor = (id: string, pass: 'as-is' | 'unwrapped'): CheckRun => ({
  id,
  kind: 'counter-check',
  label: `the seed, ${pass}`,
  script: '/solution/.envolve-ancestors/1/solve.sh',
  pass,
  ancestor: { distance: 1, versionId: 'v'.repeat(64), label: 'the seed' },
});

describe('parseResultEnvelope', () => {
  it("decodes each run's files and refuses anything else", () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const envelope = { envolveSolutionChecks: { r1: { exit: b64('0\n'), 'reward.txt': b64('1\n') }, r2: {} } };
    expect(parseResultEnvelope(envelope)).toEqual({ r1: { exit: '0\n', 'reward.txt': '1\n' }, r2: {} });
    expect(parseResultEnvelope({ results: { tests: [] } })).toBeNull();
    expect(parseResultEnvelope(undefined)).toBeNull();
  });
});

describe('judgeRun: near misses', () => {
  it('catches a near miss that scores 0 and fails its own step, with what it wrote', () => {
    const run = judgeRun(nearMiss, files('0', { s1: 'passed', s2: 'failed' }, { s2: "holds '3', expected '4'" }), undefined, null);
    expect(run).toMatchObject({ outcome: 'caught', reward: 0 });
    expect(run.why).toBe("scores 0; step s2 failed: holds '3', expected '4'");
  });

  it('lets through one that scores 1, and one that scores 0 while its own step passes', () => {
    expect(judgeRun(nearMiss, files('1', { s1: 'passed', s2: 'passed' }), undefined, null)).toMatchObject({ outcome: 'let-through' });
    const elsewhere = judgeRun(nearMiss, files('0', { s1: 'failed', s2: 'passed' }), undefined, null);
    expect(elsewhere.outcome).toBe('let-through');
    expect(elsewhere.why).toMatch(/step s2 passed: the mistake did not reach its test \(step s1 failed\)/);
  });

  it('reads reward.json when there is no reward.txt, and judges nothing without a reward', () => {
    const json: RunFiles = { exit: '0', 'reward.json': '{"reward": 0}', 'ctrf.json': ctrf({ s2: 'failed' }) };
    expect(judgeRun(nearMiss, json, undefined, null).outcome).toBe('caught');
    expect(judgeRun(nearMiss, { exit: '2' }, undefined, null)).toMatchObject({ outcome: 'error', why: 'the tests wrote no reward (exit 2)' });
    expect(judgeRun(nearMiss, {}, undefined, null)).toMatchObject({ outcome: 'error', why: 'the solution left nothing to judge (no stash)' });
    expect(judgeRun(nearMiss, { 'reward.txt': 'yes' }, undefined, null).outcome).toBe('error');
  });
});

describe('judgeRun: ancestors', () => {
  it('lets through an ancestor that passes a changed step, whatever the others do', () => {
    const run = judgeRun(ancestor('r5', 'unwrapped'), files('0', { s1: 'failed', s2: 'passed', s3: 'failed' }), undefined, ['s2', 's3']);
    expect(run).toMatchObject({ outcome: 'let-through' });
    expect(run.why).toBe('answers step s2, which the candidate changed or added');
  });

  it('catches one that fails every changed step even when it passes the unchanged ones', () => {
    const run = judgeRun(ancestor('r1', 'as-is'), files('0', { s1: 'passed', s2: 'failed' }), undefined, ['s2']);
    expect(run.outcome).toBe('caught');
  });

  it('judges the whole reward when there are no changed steps, or the tests do not name one', () => {
    expect(judgeRun(ancestor('r1', 'as-is'), files('1', {}), undefined, null).outcome).toBe('let-through');
    expect(judgeRun(ancestor('r1', 'as-is'), files('0', {}), undefined, null).outcome).toBe('caught');
    const unnamed = judgeRun(ancestor('r1', 'as-is'), files('1', { s1: 'passed' }), undefined, ['s9']);
    expect(unnamed.outcome).toBe('let-through');
    expect(unnamed.why).toMatch(/the tests name no step s9: judged on the whole reward/);
  });
});

describe('buildReport', () => {
  const runs = [ancestor('r1', 'as-is'), nearMiss, ancestor('r5', 'unwrapped')];
  const results: Record<string, RunFiles> = {
    r1: files('0', { s2: 'failed' }),
    r3: files('1', { s2: 'passed' }),
    r5: files('1', { s2: 'passed' }),
  };

  it('splits the runs by validator, counts the caught ones and words the failures', () => {
    const nearMisses = buildReport('near-miss', runs, results, {}, ['s2']);
    expect(nearMisses).toMatchObject({ kind: 'near-miss', caught: 0, total: 1, checkedSteps: null });
    expect(reportVerdict(nearMisses)).toBe('failed');
    expect(reportProblems(nearMisses)).toMatch(/^1 of 1 near misses not rejected \(mutation score 0\/1\)\nnear miss s2\.naive-split\.sh: scores 1/);

    const counter = buildReport('counter-check', runs, results, { r5: { exitCode: 0, timedOut: false } }, ['s2']);
    expect(counter).toMatchObject({ caught: 1, total: 2, checkedSteps: ['s2'] });
    expect(counter.runs[1]).toMatchObject({ id: 'r5', outcome: 'let-through', agentExitCode: 0 });
    expect(reportVerdict(counter)).toBe('failed');
    expect(parseSolutionCheckReport(JSON.stringify(counter))).toEqual(counter);
  });

  it('passes when every run is caught, and says error (never passed) when a run went unjudged', () => {
    const caught = buildReport('counter-check', [ancestor('r1', 'as-is')], results, {}, ['s2']);
    expect(reportVerdict(caught)).toBe('passed');
    expect(reportProblems(caught)).toBeNull();
    const unjudged = buildReport('counter-check', [ancestor('r1', 'as-is'), ancestor('r9', 'unwrapped')], results, {}, ['s2']);
    expect(reportVerdict(unjudged)).toBe('error');
    expect(parseSolutionCheckReport('{"reward": 1}')).toBeNull();
  });
});
