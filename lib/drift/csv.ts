// CSV export of the drift charts' data (RFC 4180: quoted when needed, CRLF line ends).
import type { DriftAlert } from './alerts.ts';
import type { Funnel } from './funnel.ts';
import type { EffectSpectrum, SpectrumMetric } from './spectrum.ts';
import { SPECTRUM_METRICS } from './spectrum.ts';
import type { Spread } from './stats.ts';
import type { MetricChart, XAxis } from './types.ts';

type Cell = string | number | boolean | null | undefined;

function cell(value: Cell): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: Cell[][]): string {
  return rows.map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

const xCell = (x: number, axis: XAxis) => (axis === 'time' ? new Date(x).toISOString() : x);

/** One row per lineage point: lineage, generation, x, value. */
export function chartLinesCsv(chart: MetricChart, x: XAxis, names: Map<string, string>): string {
  const rows: Cell[][] = [['lineage_id', 'lineage_name', 'generation_id', x === 'time' ? 'time' : 'generation', chart.metric]];
  for (const line of chart.lines) {
    for (const p of line.points) rows.push([line.lineageId, names.get(line.lineageId) ?? '', p.generationId ?? '', xCell(p.x, x), p.y]);
  }
  return toCsv(rows);
}

/** One row per x: the across-lineage median and its bands. */
export function chartBandCsv(chart: MetricChart, x: XAxis): string {
  return toCsv([
    [x === 'time' ? 'time' : 'generation', 'lineages', 'median', 'q1', 'q3', 'min', 'max'],
    ...chart.band.map((b) => [xCell(b.x, x), b.n, b.median, b.q1, b.q3, b.min, b.max]),
  ]);
}

const spreadCells = (s: Spread | null): Cell[] => (s ? [s.n, s.mean, s.sd, s.median, s.q1, s.q3, s.min, s.max] : ['0', '', '', '', '', '', '', '']);

export function spectrumCsv(spectrum: EffectSpectrum): string {
  const rows: Cell[][] = [['axis', 'scope', 'metric', 'n', 'mean', 'sd', 'median', 'q1', 'q3', 'min', 'max']];
  const add = (axis: string, scope: string, metric: SpectrumMetric, s: Spread | null) => rows.push([axis, scope, metric, ...spreadCells(s)]);
  for (const a of spectrum.axes) {
    for (const m of SPECTRUM_METRICS) add(a.axis, 'one edit', m, a.step[m]);
    for (const m of SPECTRUM_METRICS) add(a.axis, `${spectrum.horizon} edits`, m, a.cumulative[m]);
  }
  for (const m of SPECTRUM_METRICS) add('mixed', `${spectrum.horizon} edits`, m, spectrum.mixed.cumulative[m]);
  return toCsv(rows);
}

export function funnelCsv(funnel: Funnel): string {
  const t = funnel.thresholds;
  return toCsv([
    ['version_id', 'name', 'passes', 'size', 'mean_turns', 'kept', 'removed_by', 'max_passes', 'probe_size', 'min_turns'],
    ...funnel.decisions.map((d) => [d.versionId, d.name, d.passes, d.size, d.meanTurns, d.kept, d.removedBy.join(' '), t.maxPasses, t.probeSize, t.minTurns]),
  ]);
}

export function alertsCsv(alerts: DriftAlert[]): string {
  return toCsv([
    ['kind', 'severity', 'title', 'detail', 'lineage_id', 'lineage_name', 'generation_id', 'generation', 'calibration_set_id', 'href'],
    ...alerts.map((a) => [a.kind, a.severity, a.title, a.detail, a.lineageId, a.lineageName, a.generationId, a.generationNumber, a.calibrationSetId, a.href]),
  ]);
}
