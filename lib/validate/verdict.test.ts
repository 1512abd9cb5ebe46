import { describe, expect, it } from 'vitest';
import type { TrialResult } from '../sandbox/types.ts';
import { judgeTrial } from './verdict.ts';

function trial(overrides: Partial<TrialResult>): TrialResult {
  const phase = { exitCode: 0, durationMs: 1, timedOut: false, log: '', logTruncated: false };
  return {
    status: 'completed',
    reward: 1,
    timedOut: false,
    imageId: 'sha256:abc',
    runtime: 'runc',
    agent: phase,
    verifier: phase,
    containment: {
      runtime: 'runc',
      networkMode: 'none',
      oomKilled: false,
      pidsLimitReached: false,
      killedBySigkill: false,
      restartedBeforeVerifier: false,
      leftoverProcesses: 0,
      containerStopped: false,
      limits: { cpus: 1, memoryMb: 512, pids: 64, tmpfsMb: 64, fileSizeMb: 64, nofile: 1024 },
    },
    ...overrides,
  };
}

describe('judgeTrial', () => {
  it('passes an oracle that scores 1 and fails one that scores 0', () => {
    expect(judgeTrial('oracle', trial({ reward: 1 })).verdict).toBe('passed');
    expect(judgeTrial('oracle', trial({ reward: 0 })).verdict).toBe('failed');
    expect(judgeTrial('oracle', trial({ reward: 0.5 })).reason).toMatch(/scored 0.5/);
  });

  it('passes a nop that scores 0 and fails a lenient verifier', () => {
    expect(judgeTrial('invalid-test', trial({ reward: 0 })).verdict).toBe('passed');
    const lenient = judgeTrial('invalid-test', trial({ reward: 1 }));
    expect(lenient.verdict).toBe('failed');
    expect(lenient.reason).toMatch(/pass without the task being done/);
  });

  it('treats a missing reward as an error, never as 0', () => {
    const missing = trial({ status: 'reward-missing', reward: null });
    expect(judgeTrial('invalid-test', missing).verdict).toBe('error');
    expect(judgeTrial('oracle', missing).verdict).toBe('error');
  });

  it('fails an oracle whose agent phase timed out, and errors on a verifier timeout', () => {
    expect(judgeTrial('oracle', trial({ status: 'timed-out', timedOutPhase: 'agent', reward: 0 })).verdict).toBe('failed');
    expect(judgeTrial('invalid-test', trial({ status: 'timed-out', timedOutPhase: 'verifier', reward: 0 })).verdict).toBe('error');
  });

  it('refuses a verdict from a verifier that ran no test', () => {
    const noTests = trial({ reward: 0, ctrf: { results: { summary: { tests: 0, passed: 0, failed: 0 } } } });
    const judged = judgeTrial('invalid-test', noTests);
    expect(judged.verdict).toBe('error');
    expect(judged.reason).toMatch(/ran no test/);
    const someTests = trial({ reward: 1, ctrf: { results: { summary: { tests: 3, passed: 3, failed: 0 } } } });
    expect(judgeTrial('oracle', someTests).verdict).toBe('passed');
  });
});
