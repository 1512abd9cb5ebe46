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
});

describe('runVerdict', () => {
  it('fails on any failure, errs when something erred and nothing failed, and never fails on unjudged', () => {
    expect(runVerdict([{ verdict: 'passed' }, { verdict: 'unjudged' }])).toBe('passed');
    expect(runVerdict([{ verdict: 'error' }, { verdict: 'passed' }])).toBe('error');
    expect(runVerdict([{ verdict: 'error' }, { verdict: 'failed' }])).toBe('failed');
    expect(runVerdict([])).toBe('passed');
  });
});
