// The drift routes' query strings: the filter and the alert thresholds, strictly (a 400 names the
// field); empty values are unset, as a GET form sends them. The CSV download adds the chart.
import { z } from 'zod';
import { alertThresholdsSchema } from './alerts.ts';
import { driftFilterSchema } from './filters.ts';

function withoutEmpty(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => typeof v !== 'string' || v.trim() !== ''));
}

const fields = driftFilterSchema.extend(alertThresholdsSchema.shape);

function split({ lineage, seed, axisPolicy, synthesiser, from, to, x, policy, ...thresholds }: z.output<typeof fields>) {
  return { filter: { lineage, seed, axisPolicy, synthesiser, from, to, x, policy }, thresholds };
}

export const driftQuerySchema = z.preprocess(withoutEmpty, fields.transform(split));

export const DRIFT_CHARTS = ['difficulty', 'passRate', 'meanTurns', 'tokensPerTurn', 'rejectionRate', 'rounds', 'spectrum', 'funnel', 'alerts'] as const;
export type DriftChart = (typeof DRIFT_CHARTS)[number];

export const driftCsvQuerySchema = z.preprocess(
  withoutEmpty,
  fields
    .extend({
      chart: z.enum(DRIFT_CHARTS, { error: `chart is one of ${DRIFT_CHARTS.join(', ')}` }),
      part: z.enum(['lines', 'band']).default('lines'),
    })
    .transform(({ chart, part, ...rest }) => ({ chart, part, ...split(rest) })),
);
