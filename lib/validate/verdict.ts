// Turns a sandbox trial into a validator verdict. The two validators are mirror images:
// the oracle's reference solution must earn full reward, the nop agent must earn none.
import type { TrialResult } from '../sandbox/index.ts';

export type ValidatorKind = 'oracle' | 'invalid-test';
export type Verdict = 'passed' | 'failed' | 'error';

export const EXPECTED_REWARD: Record<ValidatorKind, number> = { oracle: 1, 'invalid-test': 0 };

export interface Judgement {
  verdict: Verdict;
  reason: string;
}

export function judgeTrial(kind: ValidatorKind, trial: TrialResult): Judgement {
  if (trial.status === 'error') return { verdict: 'error', reason: trial.error ?? 'the sandbox failed' };
  if (trial.status === 'reward-missing') {
    return { verdict: 'error', reason: 'the verifier wrote no reward to /logs/verifier/reward.txt or reward.json' };
  }
  if (trial.status === 'timed-out') {
    // A nop agent cannot time out on its own; a timed-out verifier says nothing about the task.
    const verdict = kind === 'oracle' && trial.timedOutPhase === 'agent' ? 'failed' : 'error';
    return { verdict, reason: `the ${trial.timedOutPhase ?? 'trial'} phase ran out of time` };
  }
  if (ctrfTestCount(trial.ctrf) === 0) {
    return { verdict: 'error', reason: 'the verifier ran no test (ctrf.json reports 0 tests): its reward means nothing' };
  }
  const expected = EXPECTED_REWARD[kind];
  if (trial.reward === expected) return { verdict: 'passed', reason: `reward ${expected} as expected` };
  const why =
    kind === 'oracle'
      ? `the reference solution scored ${trial.reward}, not ${expected}: the solution or the tests are wrong`
      : `doing nothing scored ${trial.reward}, not ${expected}: the tests pass without the task being done`;
  return { verdict: 'failed', reason: why };
}

// Terminal-Bench counted a run with zero parsed tests as solved; a verifier that ran
// nothing must not be read as a verdict.
function ctrfTestCount(ctrf: unknown): number | undefined {
  const tests = (ctrf as { results?: { summary?: { tests?: unknown } } } | undefined)?.results?.summary?.tests;
  return typeof tests === 'number' ? tests : undefined;
}
