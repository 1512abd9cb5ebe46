// One call for the page and the routes: load, then compute the view for a filter. Loading and
// computing take hundreds of milliseconds at scale, so the result is memoised per filter under the
// inputs' version (view-cache.ts); only the alerts, which depend on the clock and the thresholds,
// are computed on every read.
import type { Db } from '../db/index.ts';
import type { AlertThresholds } from './alerts.ts';
import { loadCalibrationStatuses } from './calibration.ts';
import type { DriftFilter } from './filters.ts';
import { loadCheckpointPassRates, type CheckpointPassRate } from './checkpoints.ts';
import { loadFrontierWaits } from './frontier-waits.ts';
import { driftInputVersion } from './input-version.ts';
import { loadDrift, withFrontierWaits } from './load.ts';
import { DEFAULT_SEED_FILTER, GATING_PURPOSES, latestSeedFilterRun, loadFunnelCandidates, ProbeGroupState, seedFunnel, type Funnel } from '../gate/index.ts';
import { schedulerConfigFrom, type SchedulerConfig } from '../scheduler/index.ts';
import { DriftViewCache } from './view-cache.ts';
import { alertsOf, driftViewWithoutAlerts, type AlertInput, type DriftView } from './view.ts';
import { driftWire } from './wire.ts';
import { settings } from '../config/index.ts';

// Which policy the pass rates are of: the one the filter names, else each lineage's gating policy;
// and every checkpoint of those policies with its pooled pass rate.
export interface DriftPage extends DriftView {
  passRatePolicy: { policy: string | null; label: string; policies: string[] };
  checkpoints: CheckpointPassRate[];
}

/** A memoised computation: shared by every read of its filter; only `served` is replaced. */
interface DriftPageData {
  page: Omit<DriftPage, 'alerts'>;
  alertInput: AlertInput;
  json?: string; // `page` in the wire form (wire.ts) serialised, on the first read that needs it
  served?: SerialisedDriftPage; // the last JSON answer, reused while the alerts read the same
}

/** The page as JSON in the wire form (wire.ts), made once for every answer that is the same. */
export class SerialisedDriftPage {
  constructor(
    readonly alerts: string,
    readonly json: string,
  ) {}
}

// Filters a few people look at at once; each entry holds one computed page (and, once served, its
// wire-form JSON: about 0.5 MB at 127 lineages × 15 generations).
const FILTERS_KEPT = 16;

/** The process's memo; `recomputes` counts its computations. */
export const driftPageCache = new DriftViewCache<DriftPageData>(FILTERS_KEPT);

async function computeDriftPage(db: Db, filter: DriftFilter, config: SchedulerConfig): Promise<DriftPageData> {
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
  const { view, alertInput } = driftViewWithoutAlerts(input, filter, { calibration });
  return {
    page: {
      ...view,
      passRatePolicy: { policy: filter.policy ?? null, label, policies: probed.map((p) => p.policy).sort() },
      checkpoints: await loadCheckpointPassRates(db, policies),
    },
    alertInput,
  };
}

async function driftPageData(db: Db, filter: DriftFilter): Promise<DriftPageData> {
  const config = schedulerConfigFrom(settings().scheduler);
  // The version is read before the inputs: what is computed is at least as new as the version it is kept under.
  const version = await driftInputVersion(db);
  const { lineage, seed, axisPolicy, synthesiser, from, to, x, policy } = filter;
  const key = JSON.stringify([lineage, seed, axisPolicy, synthesiser, from, to, x, policy, config]);
  return driftPageCache.get(db, key, version, () => computeDriftPage(db, filter, config));
}

export async function loadDriftView(db: Db, filter: DriftFilter, thresholds: AlertThresholds, now = new Date()): Promise<DriftPage> {
  const data = await driftPageData(db, filter);
  return { ...data.page, alerts: alertsOf(data.alertInput, thresholds, now) };
}

/**
 * The same page as JSON in the wire form (wire.ts), for the route. The memoised part is serialised once per computation; the
 * alerts are computed on every read, and while they come out the same (they change with the clock
 * only at whole hours and days) the previous answer is served again.
 */
export async function loadDriftViewJson(db: Db, filter: DriftFilter, thresholds: AlertThresholds, now = new Date()): Promise<SerialisedDriftPage> {
  const data = await driftPageData(db, filter);
  const alerts = JSON.stringify(alertsOf(data.alertInput, thresholds, now));
  if (data.served?.alerts !== alerts) {
    data.json ??= JSON.stringify(driftWire(data.page));
    data.served = new SerialisedDriftPage(alerts, `${data.json.slice(0, -1)},"alerts":${alerts}}`);
  }
  return data.served;
}

// The policy the funnel falls back to when no filter run is stored.
export const DEFAULT_FUNNEL_POLICY = 'simulated';

/** The funnel computed from the stored probes, memoised like the page: it reads versions, probe groups and rollouts, all drift inputs. */
export const driftFunnelCache = new DriftViewCache<Funnel>(1);

/**
 * The seed funnel the page shows: the newest stored filter run's (one small row, read every
 * time: a run is not a drift input), else the paper's thresholds over the stored probes.
 */
export async function loadDriftFunnel(db: Db): Promise<{ run: { policy: string; createdAt: Date } | null; funnel: Funnel }> {
  const run = await latestSeedFilterRun(db);
  if (run) return { run: { policy: run.policy, createdAt: run.createdAt }, funnel: run.funnel };
  const version = await driftInputVersion(db);
  const funnel = await driftFunnelCache.get(db, DEFAULT_FUNNEL_POLICY, version, async () =>
    seedFunnel(await loadFunnelCandidates(db, { policy: DEFAULT_FUNNEL_POLICY }), DEFAULT_SEED_FILTER, DEFAULT_FUNNEL_POLICY),
  );
  return { run: null, funnel };
}
