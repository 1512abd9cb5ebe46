// Reads what /api/metrics exposes and renders it: the drift series, the queue, recent job
// turnaround and sandbox failures.
import type { Db } from '../db/index.ts';
import { DEFAULT_ALERT_THRESHOLDS, driftAlerts } from './alerts.ts';
import { loadCalibrationStatuses } from './calibration.ts';
import { loadCheckpointPassRates } from './checkpoints.ts';
import { loadFrontierWaits } from './frontier-waits.ts';
import { loadDrift, withFrontierWaits } from './load.ts';
import type { DriftInput } from './types.ts';
import { schedulerConfigFrom } from '../scheduler/index.ts';
import { metricFamilies, renderExposition } from './prometheus.ts';
import { settings } from '../config/index.ts';

/** Job turnaround covers the jobs that finished within this window before the scrape. */
export const FINISHED_JOB_WINDOW_SECONDS = 3600;

export interface MetricsScope {
  /** Held-out lineages are the evaluation set: only those who manage the scheduler see them (never a trainer). */
  heldOut: boolean;
}

function withoutHeldOut(drift: DriftInput, heldOut: ReadonlySet<string>): DriftInput {
  return { lineages: drift.lineages.filter((l) => !heldOut.has(l.id)), points: drift.points.filter((p) => !heldOut.has(p.lineageId)) };
}

export async function prometheusText(db: Db, scope: MetricsScope, now = new Date()): Promise<string> {
  const since = new Date(now.getTime() - FINISHED_JOB_WINDOW_SECONDS * 1000);
  const config = schedulerConfigFrom(settings().scheduler);
  const [loaded, waits, heldOut, calibration, queue, finished, validatorErrors, rolloutErrors] = await Promise.all([
    loadDrift(db, { defaultPolicy: config.probePolicy }),
    loadFrontierWaits(db, config),
    scope.heldOut ? [] : db.lineage.findMany({ where: { heldOutSet: { not: null } }, select: { id: true } }),
    loadCalibrationStatuses(db),
    db.job.groupBy({ by: ['kind', 'state'], _count: { _all: true }, orderBy: [{ kind: 'asc' }, { state: 'asc' }] }),
    db.job.findMany({ where: { finishedAt: { gte: since } }, select: { kind: true, createdAt: true, finishedAt: true } }),
    db.validatorRun.count({ where: { status: 'error' } }),
    db.rollout.count({ where: { status: 'error' } }),
  ]);
  const allDrift = withFrontierWaits(loaded, waits);
  const drift = scope.heldOut ? allDrift : withoutHeldOut(allDrift, new Set(heldOut.map((l) => l.id)));
  const policies = [...new Set(drift.lineages.flatMap((l) => (l.passRatePolicy ? [l.passRatePolicy] : [])))];
  return renderExposition(
    metricFamilies({
      drift,
      checkpoints: await loadCheckpointPassRates(db, policies),
      alerts: driftAlerts(drift, calibration, DEFAULT_ALERT_THRESHOLDS, now),
      queue: queue.map((q) => ({ kind: q.kind, state: q.state, count: q._count._all })),
      finishedJobs: finished.map((j) => ({ kind: j.kind, seconds: ((j.finishedAt as Date).getTime() - j.createdAt.getTime()) / 1000 })),
      finishedWindowSeconds: FINISHED_JOB_WINDOW_SECONDS,
      sandboxFailures: { validator: validatorErrors, rollout: rolloutErrors },
    }),
  );
}
