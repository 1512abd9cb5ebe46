// Everything the drift page, its JSON route and its CSV export show for one filter, computed
// from one load.
import { driftAlerts, type AlertThresholds, type CalibrationStatus, type DriftAlert } from './alerts.ts';
import { checkpointSeries, type CheckpointSeries } from './checkpoint-series.ts';
import { difficultyOutcome, type DifficultyOutcomeRow } from './difficulty-outcome.ts';
import { applyDriftFilter, driftFacets, type DriftFacets, type DriftFilter } from './filters.ts';
import { axisPooling, unknownDifficulty, type AxisPooling, type UnknownDifficulty } from './pooling.ts';
import { metricChart, pointsByLineage } from './series.ts';
import { effectSpectrum, type EffectSpectrum } from './spectrum.ts';
import { METRICS, type DriftInput, type Metric, type MetricChart } from './types.ts';

export interface LineageSummary {
  id: string;
  name: string;
  seedName: string;
  axisPolicy: string;
  synthesiser: string;
  createdAt: string;
  frontier: number | null;
  generations: number; // positions after the seed
  latestProbe: { number: number; passes: number; size: number } | null;
}

export interface DriftView {
  filter: DriftFilter;
  facets: DriftFacets;
  totalLineages: number; // before filtering
  lineages: LineageSummary[];
  charts: Record<Metric, MetricChart>;
  axes: AxisPooling; // which axis policies the charts' bands pool, said on the page
  unknownDifficulty: UnknownDifficulty; // positions left out of the D series, and the note saying so
  spectrum: EffectSpectrum;
  difficultyOutcome: DifficultyOutcomeRow[]; // estimated D against measured pass rate and turns
  alerts: DriftAlert[];
  checkpointSeries: CheckpointSeries[]; // pass rate over generations per (policy, checkpoint), for the overlay
  // The per-lineage view's positions, for the generation table and the axis of each point.
  positions: { number: number; generationId: string | null; axis: string | null; state: string; at: string; probe: { passes: number; size: number } | null }[];
}

/** What the alerts are computed from, per request: they depend on the clock and the thresholds. */
export interface AlertInput {
  input: DriftInput; // filtered
  calibration: CalibrationStatus[];
}

/** The view without its alerts, and what they are computed from: the part a cache can keep. */
export function driftViewWithoutAlerts(
  all: DriftInput,
  filter: DriftFilter,
  options: { calibration: CalibrationStatus[]; horizon?: number },
): { view: Omit<DriftView, 'alerts'>; alertInput: AlertInput } {
  const input = applyDriftFilter(all, filter);
  const byLineage = pointsByLineage(input);
  const charts = Object.fromEntries(METRICS.map((m) => [m, metricChart(input, m, filter.x, byLineage)])) as Record<Metric, MetricChart>;
  const lineages = input.lineages
    .map((l): LineageSummary => {
      const points = byLineage.get(l.id) ?? [];
      const probed = points.filter((p) => p.probe).at(-1);
      return {
        id: l.id,
        name: l.name,
        seedName: l.seedName,
        axisPolicy: l.axisPolicy,
        synthesiser: l.synthesiser,
        createdAt: l.createdAt.toISOString(),
        frontier: l.frontier,
        generations: points.filter((p) => p.number > 0).length,
        latestProbe: probed?.probe ? { number: probed.number, ...probed.probe } : null,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  // A per-lineage view leaves out calibration sets: they belong to no lineage.
  const calibration = filter.lineage ? [] : options.calibration;
  return {
    view: {
      filter,
      facets: driftFacets(all),
      totalLineages: all.lineages.length,
      lineages,
      charts,
      axes: axisPooling(input),
      unknownDifficulty: unknownDifficulty(input),
      spectrum: effectSpectrum(input, options.horizon),
      difficultyOutcome: difficultyOutcome(input, byLineage),
      checkpointSeries: checkpointSeries(input),
      positions: filter.lineage
        ? (byLineage.get(filter.lineage) ?? []).map((p) => ({
            number: p.number,
            generationId: p.generationId,
            axis: p.axis,
            state: p.state,
            at: p.at.toISOString(),
            probe: p.probe,
          }))
        : [],
    },
    alertInput: { input, calibration },
  };
}

export function alertsOf({ input, calibration }: AlertInput, thresholds: AlertThresholds, now: Date): DriftAlert[] {
  return driftAlerts(input, calibration, thresholds, now);
}

export function driftView(
  all: DriftInput,
  filter: DriftFilter,
  options: { calibration: CalibrationStatus[]; thresholds: AlertThresholds; now: Date; horizon?: number },
): DriftView {
  const { view, alertInput } = driftViewWithoutAlerts(all, filter, options);
  return { ...view, alerts: alertsOf(alertInput, options.thresholds, options.now) };
}
