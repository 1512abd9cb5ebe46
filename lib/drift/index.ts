// Drift: pass rates, difficulty and waits over time, their alerts, CSV and Prometheus views.
// The public API of lib/drift: other modules import it from here, never from its files (README, Layers).
export { median, formatMeanSpread, type Spread } from './stats.ts';
export { DEFAULT_ALERT_THRESHOLDS, type DriftAlert, alertThresholdsSchema } from './alerts.ts';
export { driftFilterFromSearchParams, type DriftFacets, type DriftFilter, driftSearch } from './filters.ts';
export { loadDriftView, type DriftPage } from './load-view.ts';
export { driftQuerySchema, driftCsvQuerySchema } from './query.ts';
export { prometheusText } from './metrics-load.ts';
export { PROMETHEUS_CONTENT_TYPE } from './prometheus.ts';
export { type Metric, type MetricChart } from './types.ts';
export { type CheckpointPassRate } from './checkpoints.ts';
export { alertsCsv, chartBandCsv, chartLinesCsv, funnelCsv, spectrumCsv } from './csv.ts';
export { type Correlation, type DifficultyOutcomeRow, pearson } from './difficulty-outcome.ts';
export { type EffectSpectrum, type SpectrumMetric } from './spectrum.ts';
export { driftView } from './view.ts';
export { loadDriftViewJson, driftPageCache, loadDriftFunnel } from './load-view.ts';
export { driftWire, wireBand, wireLine, wireOutcomePoints, type WireOutcomePoints, type WireBand } from './wire.ts';
