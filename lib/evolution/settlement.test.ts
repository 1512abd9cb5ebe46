// How Loop 2's outcome settles a generation, and which validator outcomes are no verdict at all.
import { describe, expect, it } from 'vitest';
import type { ValidatorRun } from '../db/generated/client.ts';
import { settlementOf } from './modify-loop.ts';
import { inconclusiveReason } from './validate-candidate.ts';

function run(kind: string, verdict: string, status = 'completed'): ValidatorRun {
  return { kind, verdict, status } as ValidatorRun;
}

describe('settlementOf', () => {
  it('a valid candidate awaits review and clears an earlier error', () => {
    expect(settlementOf({ ok: true, versionId: 'v1' }, 'no valid candidate')).toEqual({ state: 'awaiting-review', versionId: 'v1', error: null });
  });

  it('a candidate nobody could judge is held for a person, with its version and the reason', () => {
    const held = settlementOf({ ok: false, reasons: ['r'], inconclusive: { versionId: 'v2', reason: 'rubric reached no verdict' } }, 'x');
    expect(held).toEqual({ state: 'needs-attention', versionId: 'v2', error: 'held for a person: rubric reached no verdict' });
  });

  it('anything else failed, with every reason', () => {
    expect(settlementOf({ ok: false, reasons: ['oracle failed', 'rubric typos failed'] }, 'no valid revision')).toEqual({
      state: 'failed',
      error: 'no valid revision: oracle failed\nrubric typos failed',
    });
  });
});

describe('inconclusiveReason', () => {
  const passed = [run('oracle', 'passed'), run('invalid-test', 'passed')];

  it('is set when the rubric erred and nothing failed', () => {
    expect(inconclusiveReason([...passed, run('rubric', 'error', 'timed-out')], ['rubric slow error'])).toBe(
      'no validator found a fault, but rubric reached no verdict: rubric slow error',
    );
  });

  it('is set when a verifier ran out of time and nothing failed', () => {
    expect(inconclusiveReason([run('oracle', 'error', 'timed-out'), run('invalid-test', 'passed'), run('rubric', 'passed')], ['slow'])).toMatch(
      /but oracle reached no verdict/,
    );
  });

  it('is not set when any validator found a fault: the modifier can act on that', () => {
    expect(inconclusiveReason([run('oracle', 'failed'), run('invalid-test', 'passed'), run('rubric', 'error', 'timed-out')], [])).toBeNull();
    expect(inconclusiveReason([...passed, run('rubric', 'failed')], [])).toBeNull();
  });

  it('is not set for trial errors that are the environment’s own (a missing reward, a failed build)', () => {
    expect(inconclusiveReason([run('oracle', 'error', 'reward-missing'), run('invalid-test', 'passed'), run('rubric', 'passed')], [])).toBeNull();
    expect(inconclusiveReason([run('oracle', 'error', 'error'), run('invalid-test', 'error', 'error'), run('rubric', 'passed')], [])).toBeNull();
  });
});
