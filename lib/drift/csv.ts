// CSV export of the drift charts' data (RFC 4180: quoted when needed, CRLF line ends).
import { stringifyCsv, type CsvValue } from '../csv/index.ts';
import type { DriftAlert } from './alerts.ts';
import type { Funnel } from '../gate/index.ts';
import type { EffectSpectrum, SpectrumMetric } from './spectrum.ts';
import { SPECTRUM_METRICS } from './spectrum.ts';
import type { Spread } from './stats.ts';
import type { MetricChart, XAxis } from './types.ts';

type Cell = CsvValue;

export function toCsv(rows: Cell[][]): string {
  return stringifyCsv(rows);
}

const xCell = (x: number, axis: XAxis) => (axis === 'time' ? new Date(x).toISOString() : x);

/** One row per lineage position, a column per metric (the metrics of one chart). */
export function chartLinesCsv(charts: MetricChart[], x: XAxis, names: Map<string, string>): string {
  const rows = new Map<string, { lineageId: string; generationId: string | null; x: number; values: (number | null)[] }>();
  charts.forEach((chart, column) => {
    for (const line of chart.lines) {
      for (const p of line.points) {
        const key = `${line.lineageId}\u0000${p.x}`;
        const row = rows.get(key) ?? { lineageId: line.lineageId, generationId: p.generationId, x: p.x, values: charts.map(() => null) };
        row.values[column] = p.y;
        rows.set(key, row);
      }
    }
  });
  const sorted = [...rows.values()].sort(
    (a, b) => (names.get(a.lineageId) ?? '').localeCompare(names.get(b.lineageId) ?? '') || a.lineageId.localeCompare(b.lineageId) || a.x - b.x,
  );
  return toCsv([
    ['lineage_id', 'lineage_name', 'generation_id', x === 'time' ? 'time' : 'generation', ...charts.map((c) => c.metric)],
    ...sorted.map((r) => [r.lineageId, names.get(r.lineageId) ?? '', r.generationId ?? '', xCell(r.x, x), ...r.values]),
  ]);
}

/** One row per metric and x: the across-lineage median and its bands. */
export function chartBandCsv(charts: MetricChart[], x: XAxis): string {
  return toCsv([
    ['metric', x === 'time' ? 'time' : 'generation', 'lineages', 'median', 'q1', 'q3', 'min', 'max'],
    ...charts.flatMap((chart) => chart.band.map((b) => [chart.metric, xCell(b.x, x), b.n, b.median, b.q1, b.q3, b.min, b.max])),
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
