// Labels and metrics as CSV (RFC 4180: quoted when needed, CRLF line ends) and JSONL (one JSON
// object per line), for analysis outside Envolve. Lead-only: the rows carry the verifier verdict.
import { z } from 'zod';
import { stringifyCsv } from '../csv/index.ts';
import type { Db } from '../db/index.ts';
import { CalibrationNotFoundError } from './errors.ts';
import type { Rate } from './metrics-wilson.ts';
import { setMetrics, type VerifierScore } from './set-metrics.ts';

export type ExportFormat = 'csv' | 'jsonl';
export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

export function toCsv(columns: readonly string[], rows: readonly Row[]): string {
  return stringifyCsv([columns, ...rows.map((r) => columns.map((c) => r[c] ?? null))]);
}

export function toJsonl(rows: readonly unknown[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
}

export const LABEL_COLUMNS = [
  'set_id',
  'position',
  'item_id',
  'rollout_id',
  'version_id',
  'stratum',
  'verifier_passed',
  'verifier_reward',
  'annotator',
  'answer',
  'note',
  'duration_ms',
  'labelled_at',
  'final_label',
  'adjudicated_by',
] as const;

export async function labelRows(db: Db, setId: string): Promise<Row[]> {
  const set = await db.calibrationSet.findUnique({
    where: { id: setId },
    select: {
      items: {
        orderBy: { position: 'asc' },
        select: {
          id: true,
          position: true,
          rolloutId: true,
          stratum: true,
          verifierPassed: true,
          verifierReward: true,
          finalLabel: true,
          adjudicatedById: true,
          labels: { orderBy: { createdAt: 'asc' }, select: { annotatorId: true, answer: true, note: true, durationMs: true, createdAt: true } },
        },
      },
    },
  });
  if (!set) throw new CalibrationNotFoundError(`no calibration set has the id ${setId}`);
  const rollouts = await db.rollout.findMany({ where: { id: { in: set.items.map((i) => i.rolloutId) } }, select: { id: true, versionId: true } });
  const userIds = set.items.flatMap((i) => [...i.labels.map((l) => l.annotatorId), i.adjudicatedById ?? '']);
  const users = await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } });
  const email = (id: string | null) => (id ? (users.find((u) => u.id === id)?.email ?? id) : null);
  return set.items.flatMap((i) =>
    i.labels.map((l) => ({
      set_id: setId,
      position: i.position,
      item_id: i.id,
      rollout_id: i.rolloutId,
      version_id: rollouts.find((r) => r.id === i.rolloutId)?.versionId ?? null,
      stratum: i.stratum,
      verifier_passed: i.verifierPassed,
      verifier_reward: i.verifierReward,
      annotator: email(l.annotatorId),
      answer: l.answer,
      note: l.note,
      duration_ms: l.durationMs,
      labelled_at: l.createdAt.toISOString(),
      final_label: i.finalLabel,
      adjudicated_by: email(i.adjudicatedById),
    })),
  );
}

export const METRIC_COLUMNS = ['set_id', 'verifier_version', 'metric', 'value', 'numerator', 'denominator', 'ci95_low', 'ci95_high', 'note'] as const;

// Sample tallies (what an annotator can count) are prefixed sample_; the unprefixed FPR, FNR,
// agreement and κ are population estimates weighted by the set's design. Precision, TPR and TNR
// are proportions within one verifier or human stratum of the sample.
const SAMPLE_RATES = ['agreement', 'falsePositiveRate', 'falseNegativeRate'] as const;
const WITHIN_STRATUM_RATES = ['precision', 'truePositiveRate', 'trueNegativeRate'] as const;
const ESTIMATES = ['falsePositiveRate', 'falseNegativeRate', 'agreement', 'kappa'] as const;

function scoreRows(setId: string, s: VerifierScore): Row[] {
  const base = { set_id: setId, verifier_version: s.verifierVersion };
  const m = s.metrics;
  const p = s.population;
  const rateRow = (metric: string, r: Rate): Row => ({
    ...base,
    metric,
    value: r.value,
    numerator: r.value === null ? null : r.numerator,
    denominator: r.value === null ? null : r.denominator,
    ci95_low: r.ci95?.low ?? null,
    ci95_high: r.ci95?.high ?? null,
    note: r.reason,
  });
  const count = (metric: string, value: number | string | null, note: string | null = null): Row => ({
    ...base,
    metric,
    value,
    numerator: null,
    denominator: null,
    ci95_low: null,
    ci95_high: null,
    note,
  });
  const method = `population estimate (${p.design} design, strata weighted by N_h/n_h; 95% interval: seeded stratified Jeffreys bootstrap, ${p.draws} draws)`;
  return [
    ...ESTIMATES.map((k): Row => ({
      ...base,
      metric: k,
      value: p[k].value,
      numerator: null,
      denominator: null,
      ci95_low: p[k].ci95?.low ?? null,
      ci95_high: p[k].ci95?.high ?? null,
      note: p[k].reason ?? method,
    })),
    ...WITHIN_STRATUM_RATES.map((k) => rateRow(k, m[k])),
    ...SAMPLE_RATES.map((k) => rateRow(`sample_${k}`, m[k])),
    {
      ...base,
      metric: 'sample_kappa',
      value: m.kappa.value,
      numerator: null,
      denominator: m.kappa.items,
      ci95_low: null,
      ci95_high: null,
      note: m.kappa.reason,
    },
    count('tp', m.confusion.tp),
    count('fp', m.confusion.fp),
    count('fn', m.confusion.fn),
    count('tn', m.confusion.tn),
    count('scored', m.scored),
    count('unsure', m.unsure),
    count('design', p.design),
    ...p.strata.map((st) =>
      count(
        `population_verifier_${st.stratum}`,
        st.population,
        st.population === null ? 'not recorded when the set was drawn' : `${st.scored} labelled, weight ${st.weight?.toFixed(3) ?? '–'}`,
      ),
    ),
    count('verdict', s.verdict.verdict, s.verdict.reasons.join('; ')),
  ];
}

export async function metricRows(db: Db, setId: string): Promise<Row[]> {
  const m = await setMetrics(db, setId);
  const rows = [...scoreRows(setId, m.recorded), ...(m.rescored ? scoreRows(setId, m.rescored) : [])];
  if (m.interAnnotator) {
    rows.push({
      set_id: setId,
      verifier_version: null,
      metric: `inter_annotator_${m.interAnnotator.method}_kappa`,
      value: m.interAnnotator.kappa.value,
      numerator: null,
      denominator: m.interAnnotator.kappa.items,
      ci95_low: null,
      ci95_high: null,
      note: m.interAnnotator.kappa.reason,
    });
  }
  return rows;
}

export const exportQuerySchema = z.object({ what: z.enum(['labels', 'metrics']).default('labels'), format: z.enum(['csv', 'jsonl']).default('csv') });

export async function exportCalibration(db: Db, setId: string, what: 'labels' | 'metrics', format: ExportFormat): Promise<string> {
  const rows = what === 'labels' ? await labelRows(db, setId) : await metricRows(db, setId);
  return format === 'csv' ? toCsv(what === 'labels' ? LABEL_COLUMNS : METRIC_COLUMNS, rows) : toJsonl(rows);
}
