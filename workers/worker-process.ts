// The worker process: claims jobs from the queue (pg-boss on PostgreSQL, the embedded queue on SQLite)
// and runs them through lib/. It reaps sandbox containers that a crashed worker left behind (expired,
// or started under a lease that is gone), at start and then periodically.
import { CALIBRATION_RESCORE_JOB, rescoreJobPayload, rescoreSet } from '../lib/calibration/index.ts';
import type { Db } from '../lib/db/index.ts';
import { defaultWorkerId, JobState, openQueue, runWorker, type ClaimedJob, type JobHandler, type Lease } from '../lib/queue/index.ts';
import type { Sandbox } from '../lib/sandbox/index.ts';
import {
  EVOLVE_JOB,
  evolveJobPayload,
  evolveLineage,
  lineageSandbox,
  lineageSeedFunnelRefusal,
  loadLineage,
  REVALIDATE_JOB,
  revalidateHeld,
  revalidateJobPayload,
  REVISE_JOB,
  reviseGeneration,
  reviseJobPayload,
  versionSandbox,
} from '../lib/evolution/index.ts';
import { BACKTEST_JOB, backtestJobPayload, configuredJudge, runBacktest } from '../lib/rubric/index.ts';
import { policyNamed, PROBE_JOB, probeJobPayload, probeSettings, probeVersion, scheduleLineage, schedulerConfigFrom } from '../lib/scheduler/index.ts';
import { createSynthesis } from '../lib/synth/index.ts';
import { VALIDATE_JOB, validateJobPayload, validateEnvironment } from '../lib/validate/index.ts';
import { settings } from '../lib/config/index.ts';
import type { LogFields, Logger } from '../lib/log/index.ts';

const REAP_INTERVAL_MS = 60_000;

export interface WorkerProcessOptions {
  db: Db;
  sandbox: Sandbox;
  concurrency: number;
  signal: AbortSignal;
  log: Logger;
  leaseMs?: number; // default 60 s; a killed worker's job is retried once its lease runs out
  reapIntervalMs?: number; // default 60 s
}

export function jobHandlers(db: Db, sandbox: Sandbox, workerId: string, log: Logger): Record<string, JobHandler> {
  // Containers carry the job and the lease they were started under, so the reaper can tell an
  // orphan of a killed worker (lease gone) from a live trial.
  const labelsFor = (job: ClaimedJob) => ({ 'envolve.job': job.id, 'envolve.worker': workerId, 'envolve.lease': leaseLabel(job) });
  // A job's progress lines carry its id and, where known, its lineage and version.
  const progressOf = (job: ClaimedJob, fields: LogFields = {}) => {
    const jobLog = log.child({ jobId: job.id, kind: job.kind, ...fields });
    return (message: string) => jobLog.info(message);
  };
  const evolutionContext = async (lineageId: string, job: ClaimedJob) => {
    const { settings: lineageSettings } = await loadLineage(db, lineageId);
    // Every build and trial of the lineage (validators, the synthesiser's oracle runs) uses its
    // base-image mapping and runtime.
    const onLineage = lineageSandbox(sandbox, lineageSettings);
    return {
      db,
      sandbox: onLineage,
      ...createSynthesis(lineageSettings.synthesiser, { sandbox: onLineage }),
      labels: labelsFor(job),
      progress: progressOf(job, { lineageId }),
    };
  };
  return {
    [VALIDATE_JOB]: async (payload, { job }) => {
      const { versionId, baseImages } = validateJobPayload.parse(payload);
      const runs = await validateEnvironment({
        db,
        sandbox: await versionSandbox(db, sandbox, versionId),
        versionId,
        baseImages,
        jobId: job.id,
        labels: labelsFor(job),
        progress: progressOf(job, { versionId }),
      });
      return { versionId, runs: runs.map((r) => ({ id: r.id, kind: r.kind, verdict: r.verdict, reward: r.reward })) };
    },
    [EVOLVE_JOB]: async (payload, { job, signal }) => {
      const { lineageId, generations } = evolveJobPayload.parse(payload);
      // Refused, not failed: another attempt would be refused the same way until the funnel keeps
      // the seed or someone records an override, so the job completes saying so and evolves nothing.
      const refusal = await lineageSeedFunnelRefusal(db, lineageId, schedulerConfigFrom(settings().scheduler));
      if (refusal) {
        log.child({ jobId: job.id, kind: job.kind, lineageId }).warn(refusal.message, { code: refusal.code });
        return {
          lineageId,
          validated: 0,
          failed: 0,
          stalled: false,
          needsAttention: null,
          stopped: null,
          refused: { code: refusal.code, message: refusal.message, verdict: refusal.verdict },
        };
      }
      const context = await evolutionContext(lineageId, job);
      const result = await evolveLineage(context, lineageId, generations, signal);
      const needsAttention = result.needsAttention?.number ?? null;
      const stopped = result.stopped?.message ?? null;
      return { lineageId, validated: result.validated.length, failed: result.failed.length, stalled: result.stalled, needsAttention, stopped, refused: null };
    },
    [REVISE_JOB]: async (payload, { job }) => {
      const { generationId, comment, rebuild } = reviseJobPayload.parse(payload);
      const generation = await db.generation.findUniqueOrThrow({ where: { id: generationId } });
      const context = await evolutionContext(generation.lineageId, job);
      const revised = await reviseGeneration(context, generationId, comment, rebuild);
      return { generationId, state: revised.state, versionId: revised.versionId };
    },
    [REVALIDATE_JOB]: async (payload, { job }) => {
      const { generationId, budgetFactor } = revalidateJobPayload.parse(payload);
      const generation = await db.generation.findUniqueOrThrow({ where: { id: generationId } });
      const context = await evolutionContext(generation.lineageId, job);
      const settled = await revalidateHeld(context, generationId, budgetFactor);
      return { generationId, state: settled.state, budgetFactor };
    },
    [PROBE_JOB]: async (payload, { job }) => {
      const target = probeJobPayload.parse(payload);
      const config = schedulerConfigFrom(settings().scheduler);
      const probe = await probeSettings(db, target.lineageId, config);
      const onLineage = target.lineageId
        ? lineageSandbox(sandbox, (await loadLineage(db, target.lineageId)).settings)
        : await versionSandbox(db, sandbox, target.versionId);
      const summary = await probeVersion(
        { db, sandbox: onLineage },
        {
          ...target,
          policy: policyNamed(probe.policy),
          size: probe.size,
          concurrency: config.probeConcurrency,
          passThreshold: config.passThreshold,
          timeoutReward: probe.timeoutReward,
          jobId: job.id,
          labels: labelsFor(job),
          progress: progressOf(job, { lineageId: target.lineageId, versionId: target.versionId }),
        },
      );
      const advanced = target.lineageId ? await scheduleLineage(db, target.lineageId, config) : undefined;
      return { groupId: summary.groupId, passes: summary.passes, size: summary.size, errors: summary.errors, frontier: advanced?.frontier };
    },
    [BACKTEST_JOB]: async (payload, { job }) => {
      const { itemId, states } = backtestJobPayload.parse(payload);
      const result = await runBacktest({
        db,
        sandboxOf: (versionId) => versionSandbox(db, sandbox, versionId),
        judge: configuredJudge(),
        itemId,
        states,
        labels: labelsFor(job),
        progress: progressOf(job, { rubricItemId: itemId }),
      });
      const violations = result.findings.filter((f) => f.verdict === 'failed').length;
      return { itemId, key: result.item.key, version: result.item.version, findings: result.findings.length, violations };
    },
    [CALIBRATION_RESCORE_JOB]: async (payload, { job }) => {
      const { setId, force } = rescoreJobPayload.parse(payload);
      return rescoreSet({
        db,
        sandbox,
        setId,
        force,
        labels: labelsFor(job),
        progress: progressOf(job),
      });
    },
  };
}

function leaseLabel(lease: Lease): string {
  return `${lease.leaseOwner}#${lease.attempts}`;
}

// A container's lease is held while its job is still running under the same owner and attempt.
export function leaseHeldIn(db: Db) {
  return async (labels: Record<string, string>): Promise<boolean> => {
    const jobId = labels['envolve.job'];
    if (!jobId) return true;
    const job = await db.job.findUnique({ where: { id: jobId } });
    // A job this database never had is another deployment's on the same engine: not ours to
    // judge (its owner label and expiry still see to it).
    if (!job) return true;
    return job.state === JobState.running && job.leaseOwner !== null && leaseLabel({ ...job, leaseOwner: job.leaseOwner }) === labels['envolve.lease'];
  };
}

export async function runWorkerProcess(options: WorkerProcessOptions): Promise<void> {
  const { db, sandbox, signal, log } = options;
  const workerId = defaultWorkerId();
  const logError = (message: string, error: unknown) => log.error(message, { workerId, err: error });
  const queue = await openQueue(db, { logError });
  const leaseHeld = leaseHeldIn(db);
  const reap = async () => {
    const reaped = await sandbox.reapContainers({ leaseHeld }).catch((err: Error) => (log.warn('reaper failed', { err }), []));
    if (reaped.length > 0) log.info(`reaper: removed ${reaped.length} container(s) left behind by crashed workers`, { containers: reaped.length });
  };
  await reap();
  const reaper = setInterval(reap, options.reapIntervalMs ?? REAP_INTERVAL_MS);
  log.info('worker started', { workerId, concurrency: options.concurrency, queue: queue.name });
  try {
    await runWorker({
      db,
      queue,
      workerId,
      concurrency: options.concurrency,
      leaseMs: options.leaseMs,
      handlers: jobHandlers(db, sandbox, workerId, log),
      signal,
      logError,
    });
  } finally {
    clearInterval(reaper);
    await queue.close();
  }
  log.info('worker stopped', { workerId });
}
