import { describe, expect, it } from 'vitest';
import { diffRollouts, withoutTiming, type RolloutObservation } from './determinism-diff.ts';

const base = (): RolloutObservation => ({
  status: 'completed',
  reward: 1,
  passed: true,
  timedOut: false,
  verifierOutput: 's1: passed\n',
  verifierExitCode: 0,
  rewardDetail: null,
  ctrf: { results: { summary: { tests: 1, start: 1, stop: 2 }, tests: [{ name: 't', status: 'passed', duration: 3 }] } },
  changedFiles: [{ path: '/app/out.txt', blobHash: 'aa' }],
  steps: [
    { stepId: 1, source: 'user', message: 'do it', command: null, output: null, exitCode: null, timedOut: false },
    { stepId: 2, source: 'agent', message: '', command: 'ls', output: 'a\n', exitCode: 0, timedOut: false },
  ],
});

describe('diffRollouts', () => {
  it('finds nothing in identical observations, and ignores only CTRF timing', () => {
    const second = base();
    const ctrf = second.ctrf as { results: { summary: { start: number }; tests: { duration: number }[] } };
    ctrf.results.summary.start = 99;
    ctrf.results.tests[0]!.duration = 42;
    expect(diffRollouts(base(), second)).toEqual([]);
    expect(withoutTiming({ a: [{ duration: 1, b: 2 }], stop: 3 })).toEqual({ a: [{ b: 2 }] });
  });

  it('reports each differing turn field, outcome and changed file', () => {
    const second = base();
    second.steps[1]!.output = 'b\n';
    second.steps.push({ stepId: 3, source: 'agent', message: '', command: 'cat x', output: '', exitCode: 1, timedOut: false });
    second.reward = 0;
    second.changedFiles = [
      { path: '/app/out.txt', blobHash: 'bb' },
      { path: '/app/extra', blobHash: 'cc' },
    ];
    expect(diffRollouts(base(), second)).toEqual([
      { where: 'turn 2', field: 'output', first: 'a\n', second: 'b\n' },
      { where: 'turn 3', field: 'present', first: false, second: true },
      { where: 'outcome', field: 'reward', first: 1, second: 0 },
      { where: 'outcome', field: 'changed file /app/extra', first: 'absent', second: 'cc' },
      { where: 'outcome', field: 'changed file /app/out.txt', first: 'aa', second: 'bb' },
    ]);
  });
});
