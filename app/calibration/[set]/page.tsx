import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import {
  calibrationVerifierStatus,
  CalibrationNotFoundError,
  describeScope,
  getSetSummary,
  setMetrics,
  type Estimate,
  type Rate,
  type SetSummary,
  type VerifierScore,
} from '@/lib/calibration/index.ts';
import { RescoreButton } from './rescore-button.tsx';

export const metadata: Metadata = { title: 'Calibration metrics' };

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function RateCell({ rate }: { rate: Rate }) {
  if (rate.value === null)
    return (
      <span className="text-zinc-400" title={rate.reason}>
        undefined ({rate.reason.split(':')[0]})
      </span>
    );
  return (
    <span className="tabular-nums">
      {pct(rate.value)}{' '}
      <span className="text-zinc-500">
        [{pct(rate.ci95.low)}, {pct(rate.ci95.high)}]
      </span>{' '}
      <span className="text-zinc-400">
        {rate.numerator}/{rate.denominator}
      </span>
    </span>
  );
}

function EstimateCell({ estimate, digits = 'pct' }: { estimate: Estimate; digits?: 'pct' | 'kappa' }) {
  if (estimate.value === null)
    return (
      <span className="text-zinc-400" title={estimate.reason}>
        undefined ({estimate.reason.split(':')[0]})
      </span>
    );
  const f = digits === 'pct' ? pct : (x: number) => x.toFixed(3);
  return (
    <span className="tabular-nums">
      {f(estimate.value)}{' '}
      <span className="text-zinc-500">
        [{f(estimate.ci95.low)}, {f(estimate.ci95.high)}]
      </span>
    </span>
  );
}

// Population estimates (weighted by the design) beside the sample's tallies, which an annotator
// can recount by hand from the confusion matrix.
const ESTIMATE_ROWS: { key: 'falsePositiveRate' | 'falseNegativeRate' | 'agreement'; label: string }[] = [
  { key: 'falsePositiveRate', label: 'False-positive rate (verifier passed what humans failed)' },
  { key: 'falseNegativeRate', label: 'False-negative rate' },
  { key: 'agreement', label: 'Agreement' },
];

function designText(set: SetSummary): string {
  const drawn = `${set.strata.pass} of ${set.population?.pass ?? '?'} verifier passes and ${set.strata.fail} of ${set.population?.fail ?? '?'} verifier fails in the scope`;
  if (set.design === 'random') return `Plain random sample (uniform over the scope): ${drawn}.`;
  return `Stratified by the verifier's verdict (${Math.round(set.passShare * 100)}% pass share): ${drawn}.`;
}

const BANNER: Record<string, { title: string; style: string }> = {
  trustworthy: { title: 'Trustworthy', style: 'border-emerald-300 bg-emerald-50 text-emerald-900' },
  'not-trustworthy': { title: 'Not trustworthy', style: 'border-red-300 bg-red-50 text-red-900' },
  'insufficient-data': { title: 'Insufficient data', style: 'border-amber-300 bg-amber-50 text-amber-900' },
};

function Banner({ score, label }: { score: VerifierScore; label: string }) {
  const b = BANNER[score.verdict.verdict]!;
  return (
    <div data-testid={`verdict-${label}`} className={`rounded-md border p-3 text-sm ${b.style}`}>
      <p className="font-semibold">{b.title}</p>
      <ul className="mt-1 list-disc pl-5">
        {score.verdict.reasons.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
    </div>
  );
}

function Confusion({ score, label }: { score: VerifierScore; label: string }) {
  const { tp, fp, fn, tn } = score.metrics.confusion;
  const cell = 'border border-zinc-200 px-3 py-1.5 text-center tabular-nums';
  return (
    <table data-testid={`confusion-${label}`} className="text-sm">
      <caption className="mb-1 text-left text-xs text-zinc-500">Sample confusion matrix (rows: verifier, columns: humans)</caption>
      <thead>
        <tr>
          <th />
          <th className={cell}>human pass</th>
          <th className={cell}>human fail</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th className={cell}>verifier pass</th>
          <td className={cell} data-testid="tp">
            {tp}
          </td>
          <td className={cell} data-testid="fp">
            {fp}
          </td>
        </tr>
        <tr>
          <th className={cell}>verifier fail</th>
          <td className={cell} data-testid="fn">
            {fn}
          </td>
          <td className={cell} data-testid="tn">
            {tn}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

function Strata({ score, label }: { score: VerifierScore; label: string }) {
  const cell = 'border border-zinc-200 px-3 py-1.5 text-right tabular-nums';
  return (
    <table data-testid={`strata-${label}`} className="text-sm">
      <caption className="mb-1 text-left text-xs text-zinc-500">Strata: each labelled item stands for N/n trajectories of the scope</caption>
      <thead>
        <tr>
          <th className={cell}>verifier verdict</th>
          <th className={cell}>in scope (N)</th>
          <th className={cell}>labelled (n)</th>
          <th className={cell}>human pass</th>
          <th className={cell}>human fail</th>
          <th className={cell}>weight N/n</th>
        </tr>
      </thead>
      <tbody>
        {score.population.strata.map((st) => (
          <tr key={st.stratum} data-testid={`stratum-${st.stratum}`}>
            <th className={cell}>{st.stratum}</th>
            <td className={cell}>{st.population ?? 'not recorded'}</td>
            <td className={cell}>{st.scored}</td>
            <td className={cell}>{st.humanPass}</td>
            <td className={cell}>{st.humanFail}</td>
            <td className={cell}>{st.weight === null ? '–' : st.weight.toFixed(2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default async function CalibrationSetPage({ params }: { params: Promise<{ set: string }> }) {
  await requirePermission('calibration.manage');
  const { set: setId } = await params;
  const db = await requestDb();
  let data;
  try {
    data = await Promise.all([getSetSummary(db, setId), setMetrics(db, setId), calibrationVerifierStatus(db, setId)]);
  } catch (err) {
    if (err instanceof CalibrationNotFoundError) notFound();
    throw err;
  }
  const [set, m, verifier] = data;
  const scores = [{ label: 'recorded', title: `Recorded verifier ${set.verifierVersion.slice(0, 12)}`, score: m.recorded }];
  if (m.rescored) scores.push({ label: 'rescored', title: `Re-scored with ${m.rescored.verifierVersion.slice(0, 12)}`, score: m.rescored });
  const fpr = m.recorded.population.falsePositiveRate;
  const sampleFpr = m.recorded.metrics.falsePositiveRate;

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-lg font-semibold tracking-tight">{set.name}</h1>
          <p className="text-sm text-zinc-500">
            {describeScope(set.scope)} · {set.size} trajectories · seed {set.seed} · {set.overlap} label(s) per item · annotators{' '}
            {set.annotators.map((a) => a.name).join(', ')}
          </p>
          <p className="text-sm text-zinc-700" data-testid="set-design">
            Design: {designText(set)} Rates that mix the strata are estimated for the scope by weighting each stratum by N/n; 95% intervals from a seeded
            stratified Jeffreys bootstrap ({m.recorded.population.draws} draws, seed {set.seed}).
          </p>
          <p className="text-sm text-zinc-500" data-testid="set-progress">
            {m.finalLabels} of {m.items} items have a final label · {m.awaitingLabels} awaiting labels · {m.awaitingAdjudication} awaiting adjudication ·{' '}
            {m.recorded.metrics.unsure} unsure (excluded)
          </p>
        </div>
        <div className="flex flex-wrap gap-2 text-sm">
          <Link href={`/calibration/${setId}/adjudicate`} className="underline">
            Adjudicate ({m.awaitingAdjudication})
          </Link>
          {(['labels', 'metrics'] as const).flatMap((what) =>
            (['csv', 'jsonl'] as const).map((format) => (
              <a key={`${what}-${format}`} href={`/api/calibration/sets/${setId}/export?what=${what}&format=${format}`} className="underline">
                {what} .{format}
              </a>
            )),
          )}
        </div>
      </div>

      <div className="rounded-lg border border-zinc-200 bg-white p-4">
        <p className="text-xs uppercase tracking-wide text-zinc-500">Headline: false-positive rate, estimated for the scope</p>
        <p data-testid="headline-fpr" className="text-2xl font-semibold tabular-nums">
          {fpr.value === null ? '—' : pct(fpr.value)}
          {fpr.value !== null && (
            <span className="ml-2 text-base font-normal text-zinc-500">
              95% interval [{pct(fpr.ci95.low)}, {pct(fpr.ci95.high)}]
            </span>
          )}
          {fpr.value === null && <span className="ml-2 text-base font-normal text-zinc-500">{fpr.reason}</span>}
        </p>
        <p className="text-sm text-zinc-500" data-testid="headline-sample">
          Sample tally:{' '}
          {sampleFpr.value === null
            ? sampleFpr.reason
            : `${sampleFpr.numerator} of ${sampleFpr.denominator} human-failed trajectories in the set passed (${pct(sampleFpr.value)} unweighted${set.design === 'stratified' ? ', not a scope rate: the strata were drawn in fixed numbers' : ''})`}
        </p>
      </div>

      {verifier.stale && (
        <div className="flex flex-wrap items-center gap-3 rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900" data-testid="stale-verifier">
          The environments&apos; tests changed since this set was created (verifier {verifier.recorded.slice(0, 12)} → {verifier.current.slice(0, 12)}).
          <RescoreButton setId={setId} />
        </div>
      )}

      <div className={`grid gap-5 ${scores.length > 1 ? 'lg:grid-cols-2' : ''}`}>
        {scores.map(({ label, title, score }) => (
          <section key={label} aria-label={title} className="flex flex-col gap-3">
            <h2 className="text-sm font-semibold">{title}</h2>
            <Banner score={score} label={label} />
            <table className="w-full text-left text-sm" data-testid={`metrics-${label}`}>
              <thead>
                <tr className="text-xs text-zinc-500">
                  <th className="py-1 pr-3 font-normal">Metric</th>
                  <th className="py-1 pr-3 font-normal">Scope estimate [95% interval]</th>
                  <th className="py-1 font-normal">Sample tally</th>
                </tr>
              </thead>
              <tbody>
                {ESTIMATE_ROWS.map((row) => (
                  <tr key={row.key} className="border-t border-zinc-100" data-testid={`metric-${row.key}`}>
                    <th className="py-1.5 pr-3 font-normal text-zinc-600">{row.label}</th>
                    <td className="py-1.5 pr-3" data-testid="estimate">
                      <EstimateCell estimate={score.population[row.key]} />
                    </td>
                    <td className="py-1.5" data-testid="sample">
                      <RateCell rate={score.metrics[row.key]} />
                    </td>
                  </tr>
                ))}
                <tr className="border-t border-zinc-100" data-testid="metric-kappa">
                  <th className="py-1.5 pr-3 font-normal text-zinc-600">Cohen&apos;s κ (verifier vs humans)</th>
                  <td className="py-1.5 pr-3" data-testid="estimate">
                    <EstimateCell estimate={score.population.kappa} digits="kappa" />
                  </td>
                  <td className="py-1.5 tabular-nums" data-testid="sample">
                    {score.metrics.kappa.value === null ? (
                      <span className="text-zinc-400">undefined: {score.metrics.kappa.reason}</span>
                    ) : (
                      score.metrics.kappa.value.toFixed(3)
                    )}
                  </td>
                </tr>
                <tr className="border-t border-zinc-100" data-testid="metric-precision">
                  <th className="py-1.5 pr-3 font-normal text-zinc-600">Precision (within the verifier-pass stratum: unbiased as drawn)</th>
                  <td className="py-1.5" colSpan={2}>
                    <RateCell rate={score.population.precision} />
                  </td>
                </tr>
              </tbody>
            </table>
            {score.population.notes.length > 0 && (
              <ul className="list-disc pl-5 text-xs text-zinc-600">
                {score.population.notes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            )}
            <Strata score={score} label={label} />
            <Confusion score={score} label={label} />
            {label === 'rescored' && (
              <p className="text-sm text-zinc-600">
                {m.flipped} verdict(s) changed; {score.errors} trajectory(ies) could not be re-scored.
              </p>
            )}
          </section>
        ))}
      </div>

      <section aria-labelledby="iaa" className="text-sm">
        <h2 id="iaa" className="font-semibold">
          Agreement between annotators
        </h2>
        <p data-testid="inter-annotator">
          {m.interAnnotator === null
            ? 'No overlap: each item has one label.'
            : `${m.interAnnotator.method === 'cohen' ? "Cohen's" : "Fleiss'"} κ ${m.interAnnotator.kappa.value === null ? `undefined (${m.interAnnotator.kappa.reason})` : m.interAnnotator.kappa.value.toFixed(3)} over ${m.interAnnotator.kappa.items} items`}
        </p>
      </section>
    </div>
  );
}
