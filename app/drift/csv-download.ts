// The data behind one drift chart as CSV: the funnel from the latest seed-filter run (or a
// simulated one), the spectrum and alerts as they are, a chart's lines or band by its metrics.
import type { Db } from '@/lib/db/index.ts';
import { alertsCsv, chartBandCsv, chartLinesCsv, funnelCsv, spectrumCsv, loadDriftFunnel, loadDriftView } from '@/lib/drift/index.ts';
import type { driftCsvQuerySchema } from '@/lib/drift/index.ts';
import type { z } from 'zod';
import { CHART_METRICS } from './chart-data.ts';

export async function driftCsv(db: Db, query: z.output<typeof driftCsvQuerySchema>): Promise<{ name: string; body: string }> {
  const { chart, part, filter, thresholds } = query;
  if (chart === 'funnel') {
    return { name: 'funnel', body: funnelCsv((await loadDriftFunnel(db)).funnel) };
  }
  const view = await loadDriftView(db, filter, thresholds);
  if (chart === 'spectrum') return { name: 'spectrum', body: spectrumCsv(view.spectrum) };
  if (chart === 'alerts') return { name: 'alerts', body: alertsCsv(view.alerts) };
  const charts = CHART_METRICS[chart]!.map((metric) => view.charts[metric]);
  const names = new Map(view.lineages.map((l) => [l.id, l.name]));
  const body = part === 'band' ? chartBandCsv(charts, filter.x) : chartLinesCsv(charts, filter.x, names);
  return { name: `${chart}-${part}`, body };
}
