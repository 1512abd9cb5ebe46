// One call for the page and the routes: load, then compute the view for a filter.
import type { Db } from '../db/index.ts';
import type { AlertThresholds } from './alerts.ts';
import { loadCalibrationStatuses } from './calibration.ts';
import type { DriftFilter } from './filters.ts';
import { loadCheckpointPassRates, type CheckpointPassRate } from './checkpoints.ts';
import { loadFrontierWaits } from './frontier-waits.ts';
import { loadDrift, withFrontierWaits } from './load.ts';
import { GATING_PURPOSES, ProbeGroupState } from '../gate/index.ts';
import { schedulerConfigFrom } from '../scheduler/index.ts';
import { driftView, type DriftView } from './view.ts';
import { settings } from '../config/index.ts';

// Which policy the pass rates are of: the one the filter names, else each lineage's gating policy;
// and every checkpoint of those policies with its pooled pass rate.
export interface DriftPage extends DriftView {
  passRatePolicy: { policy: string | null; label: string; policies: string[] };
  checkpoints: CheckpointPassRate[];
}

export async function loadDriftView(db: Db, filter: DriftFilter, thresholds: AlertThresholds, now = new Date()): Promise<DriftPage> {
  const config = schedulerConfigFrom(settings().scheduler);
  const defaultPolicy = config.probePolicy;
  const [loaded, calibration, probed, waits] = await Promise.all([
    loadDrift(db, { policy: filter.policy, defaultPolicy }),
    loadCalibrationStatuses(db),
    db.probeGroup.findMany({ where: { purpose: { in: GATING_PURPOSES }, state: ProbeGroupState.complete }, distinct: ['policy'], select: { policy: true } }),
    loadFrontierWaits(db, config),
  ]);
  const input = withFrontierWaits(loaded, waits);
  const policies = [...new Set(input.lineages.flatMap((l) => (l.passRatePolicy ? [l.passRatePolicy] : [])))].sort();
  const label = filter.policy
    ? `pass rates of the ${filter.policy} policy, latest group of any checkpoint per position`
    : `pass rates of each lineage's gating policy (${policies.join(', ') || defaultPolicy}), latest group of any checkpoint per position`;
  return {
    ...driftView(input, filter, { calibration, thresholds, now }),
    passRatePolicy: { policy: filter.policy ?? null, label, policies: probed.map((p) => p.policy).sort() },
    checkpoints: await loadCheckpointPassRates(db, policies),
  };
}
