import { describe, expect, it } from 'vitest';
import { checkVerdict, runVerdict } from './verdicts.ts';

const result = { id: 'c', output: 'out', durationMs: 5, timedOut: false };

describe('checkVerdict', () => {
  it('maps exit codes, timeouts and broken checks', () => {
    expect(checkVerdict({ ...result, exitCode: 0 }).verdict).toBe('passed');
    expect(checkVerdict({ ...result, exitCode: 1 }).verdict).toBe('failed');
    expect(checkVerdict({ ...result, exitCode: 127 }).verdict).toBe('error');
    expect(checkVerdict({ ...result, exitCode: null, timedOut: true }).verdict).toBe('error');
    expect(checkVerdict({ ...result, exitCode: null, error: 'no such container' }).detail).toMatch(/could not run/);
  });

  it('says when a verdict came from the one retry after an overrun, and that two overruns judge nothing', () => {
    const retried = { ...result, output: 'ok\n', retriedAfterSec: 20 };
    expect(checkVerdict({ ...retried, exitCode: 0 })).toMatchObject({
      verdict: 'passed',
      detail: 'ok\n[the first run overran its 20 s budget; this is its one retry]',
    });
    expect(checkVerdict({ ...retried, exitCode: 1 })).toMatchObject({ verdict: 'failed' });
    const twice = checkVerdict({ ...retried, exitCode: null, timedOut: true });
    expect(twice.verdict).toBe('error');
    expect(twice.detail).toMatch(/ran out of time twice \(20 s, then a larger budget\): a slow machine or a slow check, not a verdict on the environment/);
  });
});

describe('runVerdict', () => {
  it('fails on any failure, errs when something erred and nothing failed, and never fails on unjudged', () => {
    expect(runVerdict([{ verdict: 'passed' }, { verdict: 'unjudged' }])).toBe('passed');
    expect(runVerdict([{ verdict: 'error' }, { verdict: 'passed' }])).toBe('error');
    expect(runVerdict([{ verdict: 'error' }, { verdict: 'failed' }])).toBe('failed');
    expect(runVerdict([])).toBe('passed');
  });
});
