// The drift routes' shared parsing: the filter and the alert thresholds, strictly (a 400 names the field).
import { z } from 'zod';
import { alertThresholdsSchema } from '@/lib/drift/alerts.ts';
import { driftFilterSchema } from '@/lib/drift/filters.ts';

const query = driftFilterSchema.extend(alertThresholdsSchema.shape);

/** Empty values are unset, as a GET form sends them. */
export function parseDriftQuery(url: string) {
  const entries = [...new URL(url).searchParams].filter(([, value]) => value.trim() !== '');
  const parsed = query.safeParse(Object.fromEntries(entries));
  if (!parsed.success) return parsed;
  const { lineage, seed, axisPolicy, synthesiser, from, to, x, policy, ...thresholds } = parsed.data;
  return { success: true as const, filter: { lineage, seed, axisPolicy, synthesiser, from, to, x, policy }, thresholds };
}

export const chartSchema = z.object({
  chart: z.enum(['difficulty', 'passRate', 'meanTurns', 'tokensPerTurn', 'rejectionRate', 'rounds', 'spectrum', 'funnel', 'alerts'], {
    error: 'chart is one of difficulty, passRate, meanTurns, tokensPerTurn, rejectionRate, rounds, spectrum, funnel, alerts',
  }),
  part: z.enum(['lines', 'band']).default('lines'),
});
