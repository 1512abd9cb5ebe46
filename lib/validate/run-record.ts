// The ValidatorRun row a validator produces, and the parts every validator fills the same way:
// how the image was built, and the row of a validator that reached no verdict.
import type { ValidatorRun } from '../db/index.ts';
import type { BuildAttempt } from '../sandbox/index.ts';

export type RunRecord = Omit<ValidatorRun, 'id' | 'createdAt'>;

// Which validation a row belongs to: the version, and the job and attempt that asked for it.
export interface RecordScope {
  versionId: string;
  jobId?: string;
  attemptId?: string;
}

export function buildRecord(build: BuildAttempt & { cached: boolean }) {
  return { network: build.network, mapped: build.mapped, mirrors: build.mirrors, mirrorsSource: build.mirrorsSource, tag: build.tag, cached: build.cached };
}

export function errorRecord(scope: RecordScope, kind: string, expectedReward: number, error: string): RunRecord {
  return {
    versionId: scope.versionId,
    kind,
    verdict: 'error',
    status: 'error',
    reward: null,
    rewardDetail: null,
    expectedReward,
    imageId: null,
    sandboxRuntime: null,
    agentExitCode: null,
    verifierExitCode: null,
    agentLog: '',
    verifierLog: '',
    error,
    containment: null,
    build: null,
    timedOut: false,
    buildDurationMs: 0,
    agentDurationMs: 0,
    verifierDurationMs: 0,
    totalDurationMs: 0,
    jobId: scope.jobId ?? null,
    attemptId: scope.attemptId ?? null,
    rubricVersion: null,
  };
}
