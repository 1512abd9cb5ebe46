// The validators that run on one built image, in parallel containers: oracle (the reference
// solution must score 1), invalid-test (doing nothing must score 0), and, sharing one container,
// near-miss (every near miss the bundle carries must score 0) and counter-check (no earlier
// reference solution may answer what the candidate changed; only when the caller names them).
// All verdicts are stored together, so a retried job never records a validation twice.
import type { Db, ValidatorRun } from '../db/index.ts';
import { loadBundle, ORACLE_FILE, internetRequests } from '../env/index.ts';
import { bundleFile, type TaskBundle, parseTaskConfig, type TaskConfig } from '../bundle/index.ts';
import { composeFileOf, taskComposeSpec, EnvironmentBuildError, isDeterministicBuildFailure, rethrowIfStopping } from '../sandbox/index.ts';
import type { BaseImageMapping, AgentSpec, BuildResult, Sandbox, TrialResult } from '../sandbox/index.ts';
import { buildRecord, errorRecord as recordWithError, type RunRecord } from './run-record.ts';
import type { SolutionCheckInput } from './solution-check-plan.ts';
import { runSolutionChecks } from './solution-checks.ts';
import { trialRequest } from './trial-request.ts';
import { EXPECTED_REWARD, judgeTrial, type ValidatorKind } from './verdict.ts';

export const VALIDATOR_KINDS: ValidatorKind[] = ['oracle', 'invalid-test'];

const AGENT_FOR: Record<ValidatorKind, AgentSpec> = { oracle: { kind: 'oracle' }, 'invalid-test': { kind: 'nop' } };

export interface ValidateOptions {
  db: Db;
  sandbox: Sandbox;
  versionId: string;
  jobId?: string; // makes the validation idempotent across retries of the same job
  attemptId?: string; // the evolution attempt whose candidate this is
  baseImages?: BaseImageMapping; // which local image stands in for a FROM this machine lacks
  labels?: Record<string, string>;
  progress?: (message: string) => void;
  budgetFactor?: number; // multiplies the task's agent and verifier timeouts (a retry with a larger budget)
  // The earlier versions' solutions and the changed steps, for the counter-check (an evolution
  // candidate); without it only the near misses the bundle carries are checked.
  solutionChecks?: SolutionCheckInput | null;
}

export async function validateEnvironment(options: ValidateOptions): Promise<ValidatorRun[]> {
  const { db, versionId, jobId } = options;
  const bundle = await loadBundle(db, versionId);
  if (jobId) {
    // One transaction writes every row of a validation (a build failure has no solution-check rows).
    const done = await db.validatorRun.findMany({ where: { jobId }, orderBy: { kind: 'desc' } });
    if (done.length >= VALIDATOR_KINDS.length) return done;
  }
  const records = await runValidators(options, bundle);
  return db.$transaction(records.map((data) => db.validatorRun.create({ data })));
}

const errorRecord = (options: ValidateOptions, kind: ValidatorKind, error: string): RunRecord => recordWithError(options, kind, EXPECTED_REWARD[kind], error);

async function runValidators(options: ValidateOptions, bundle: TaskBundle): Promise<RunRecord[]> {
  const progress = options.progress ?? (() => {});
  const parsed = parseTaskConfig(bundleFile(bundle, 'task.toml')?.content.toString('utf8') ?? '');
  if (!parsed.ok) return VALIDATOR_KINDS.map((kind) => errorRecord(options, kind, `task.toml: ${parsed.error}`));

  const compose = composeFileOf(bundle);
  const spec = compose ? taskComposeSpec(bundle, compose) : undefined;
  if (spec && !spec.ok) {
    // Run without the services it names, it would fail for the wrong reason.
    return VALIDATOR_KINDS.map((kind) => ({ ...errorRecord(options, kind, `refused: ${spec.reason}`), status: REFUSED }));
  }
  progress(`building the environment image of ${bundle.name}`);
  let build: BuildResult;
  try {
    build = await options.sandbox.buildEnvironmentImage(bundle, {
      baseImages: options.baseImages,
      timeoutSec: parsed.config.environment.build_timeout_sec,
    });
  } catch (err) {
    rethrowIfStopping(err);
    const failure = { ...errorRecord(options, 'oracle', `image build failed: ${(err as Error).message}`), status: statusOfBuildFailure(err) };
    // A failed build keeps how it was built (network, FROM mapping, mirrors) and how long it took.
    if (err instanceof EnvironmentBuildError && err.attempt) {
      failure.build = JSON.stringify(buildRecord({ ...err.attempt, cached: false }));
      failure.buildDurationMs = err.attempt.durationMs;
    }
    return VALIDATOR_KINDS.map((kind) => ({ ...failure, kind, expectedReward: EXPECTED_REWARD[kind] }));
  }
  progress(`image ${build.imageId.slice(7, 19)} ${build.cached ? '(cached)' : `built in ${build.durationMs} ms`}`);

  // Without a reference solution there is nothing for the oracle to run: said, not run.
  const hasSolution = bundleFile(bundle, ORACLE_FILE) !== undefined;
  const checks = runSolutionChecks({
    ...options,
    bundle,
    config: parsed.config,
    build,
    input: options.solutionChecks ?? null,
    progress,
  });
  const pair = Promise.all(
    VALIDATOR_KINDS.map(async (kind) => {
      if (kind === 'oracle' && !hasSolution) {
        progress('oracle: no reference solution');
        return { ...errorRecord(options, kind, NO_SOLUTION_MESSAGE), status: NO_SOLUTION, imageId: build.imageId, build: JSON.stringify(buildRecord(build)) };
      }
      progress(`${kind}: running`);
      const record = await runValidator(options, bundle, parsed.config, build, kind);
      progress(`${kind}: ${record.verdict} (reward ${record.reward ?? '–'}, ${record.totalDurationMs} ms)`);
      return record;
    }),
  );
  const [oracleAndInvalid, solutionChecks] = await Promise.all([pair, checks]);
  return [...oracleAndInvalid, ...solutionChecks];
}

async function runValidator(options: ValidateOptions, bundle: TaskBundle, config: TaskConfig, build: BuildResult, kind: ValidatorKind): Promise<RunRecord> {
  const labels = { ...options.labels, 'envolve.validator': kind, 'envolve.version': options.versionId };
  const started = Date.now();
  let trial: TrialResult;
  try {
    trial = await options.sandbox.runTrial(trialRequest(bundle, config, build.imageId, AGENT_FOR[kind], labels, options.budgetFactor));
  } catch (err) {
    rethrowIfStopping(err);
    return { ...errorRecord(options, kind, `sandbox failure: ${(err as Error).message}`), imageId: build.imageId };
  }
  const judgement = judgeTrial(kind, trial);
  const internet = internetRequests(config.raw);
  // Not a silent 0: a task that asked for internet and failed offline is told so.
  const error =
    judgement.verdict === 'passed'
      ? null
      : internet.length > 0
        ? `Envolve ran this task offline although it asks for internet (${internet.map((t) => `[${t}] allow_internet = true`).join(', ')}); what failed: ${judgement.reason}`
        : judgement.reason;
  return {
    versionId: options.versionId,
    kind,
    verdict: judgement.verdict,
    status: trial.status,
    reward: trial.reward,
    rewardDetail: trial.rewardDetail ? JSON.stringify(trial.rewardDetail) : null,
    expectedReward: EXPECTED_REWARD[kind],
    imageId: trial.imageId,
    sandboxRuntime: trial.runtime,
    agentExitCode: trial.agent.exitCode,
    verifierExitCode: trial.verifier?.exitCode ?? null,
    agentLog: trial.agent.log,
    verifierLog: trial.verifier?.log ?? '',
    error,
    containment: JSON.stringify(trial.containment),
    build: JSON.stringify(buildRecord(build)),
    timedOut: trial.timedOut,
    buildDurationMs: build.cached ? 0 : build.durationMs,
    agentDurationMs: trial.agent.durationMs,
    verifierDurationMs: trial.verifier?.durationMs ?? 0,
    totalDurationMs: Date.now() - started,
    jobId: options.jobId ?? null,
    attemptId: options.attemptId ?? null,
    rubricVersion: null,
  };
}

// A failure another try would repeat (a build error, a missing base image) is 'build-failed',
// which the modify loop and the queue do not retry; a sandbox that could not build at all is 'error'.
export const BUILD_FAILED = 'build-failed';
// A task without solution/solve.sh: its oracle validator is recorded as not run.
export const NO_SOLUTION = 'no-solution';
const NO_SOLUTION_MESSAGE = `no reference solution: the task has no ${ORACLE_FILE}, so the oracle validator did not run`;
// A task Envolve cannot run as written (a compose file it cannot honour): refused before anything runs.
export const REFUSED = 'refused';

function statusOfBuildFailure(err: unknown): string {
  return isDeterministicBuildFailure(err) ? BUILD_FAILED : 'error';
}
