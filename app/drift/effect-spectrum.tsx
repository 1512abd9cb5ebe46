import type { EffectSpectrum, SpectrumMetric } from '@/lib/drift/index.ts';
import { formatMeanSpread, type Spread } from '@/lib/drift/index.ts';

const AXIS_COLOURS: Record<string, string> = { length: 'var(--color-sky-600)', scenario: 'var(--color-amber-600)', skill: 'var(--color-emerald-600)' };
const BAR_W = 132;
const BAR_H = 18;

const UNITS: Record<SpectrumMetric, { scale: number; unit: string; digits: number }> = {
  passRate: { scale: 100, unit: 'pp', digits: 1 }, // percentage points
  meanTurns: { scale: 1, unit: 'turns', digits: 1 },
};

function signed(v: number, digits: number): string {
  const text = Math.abs(v).toFixed(digits);
  return v > 0 ? `+${text}` : v < 0 ? `−${text}` : text;
}

// A bar from zero to the mean, a whisker of ± one standard deviation (none for one sample: it has
// no spread to show), and optionally a tick where `marker` falls (the single-edit effect times
// the horizon).
function DivergingBar({
  spread,
  limit,
  colour,
  metric,
  marker,
}: {
  spread: Spread | null;
  limit: number;
  colour: string;
  metric: SpectrumMetric;
  marker?: number;
}) {
  if (!spread) return <span className="text-xs text-zinc-400">no data</span>;
  const x = (v: number) => BAR_W / 2 + (Math.max(-limit, Math.min(limit, v)) / limit) * (BAR_W / 2 - 4);
  const mean = x(spread.mean);
  const text = formatMeanSpread(spread, UNITS[metric]);
  return (
    <span className="flex flex-col gap-0.5">
      <svg width={BAR_W} height={BAR_H} role="img" aria-label={text} className="shrink-0">
        <line x1={BAR_W / 2} x2={BAR_W / 2} y1={0} y2={BAR_H} stroke="var(--color-zinc-400)" />
        <rect x={Math.min(mean, BAR_W / 2)} y={4} width={Math.abs(mean - BAR_W / 2)} height={BAR_H - 8} rx={2} fill={colour} fillOpacity={0.75} />
        {spread.n > 1 && (
          <line
            x1={x(spread.mean - spread.sd)}
            x2={x(spread.mean + spread.sd)}
            y1={BAR_H / 2}
            y2={BAR_H / 2}
            stroke="var(--color-zinc-800)"
            strokeWidth={1.25}
          />
        )}
        {marker !== undefined && (
          <line x1={x(marker)} x2={x(marker)} y1={1} y2={BAR_H - 1} stroke="var(--color-zinc-800)" strokeWidth={2} strokeDasharray="2 1.5" />
        )}
      </svg>
      <span className="whitespace-nowrap pl-0.5 text-xs tabular-nums text-zinc-700" data-testid="spread-text">
        {text}
      </span>
    </span>
  );
}

function limitOf(values: (Spread | null)[]): number {
  const extremes = values.flatMap((s) => (s ? [Math.abs(s.mean) + s.sd] : []));
  return Math.max(1e-9, ...extremes) * 1.1;
}

export function EffectSpectrumTable({ spectrum }: { spectrum: EffectSpectrum }) {
  const h = spectrum.horizon;
  const stepLimit = (m: SpectrumMetric) => limitOf(spectrum.axes.map((a) => a.step[m]));
  const cumLimit = (m: SpectrumMetric) =>
    limitOf([
      ...spectrum.axes.map((a) => a.cumulative[m]),
      ...spectrum.axes.map((a) => (a.step[m] ? { ...a.step[m]!, mean: a.step[m]!.mean * h, sd: 0 } : null)),
    ]);
  const limits = {
    step: { passRate: stepLimit('passRate'), meanTurns: stepLimit('meanTurns') },
    cum: { passRate: cumLimit('passRate'), meanTurns: cumLimit('meanTurns') },
  };
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white shadow-xs" data-testid="effect-spectrum">
      <table className="w-full text-sm">
        <thead>
          <tr className="border-b border-zinc-200 text-left text-xs text-zinc-500">
            <th className="px-4 py-2 font-medium">Axis</th>
            <th className="px-3 py-2 text-right font-medium">Edits</th>
            <th className="px-3 py-2 font-medium">One edit: Δ pass rate</th>
            <th className="px-3 py-2 font-medium">One edit: Δ mean turns</th>
            <th className="px-3 py-2 font-medium">{h} edits: Δ pass rate</th>
            <th className="px-3 py-2 font-medium">{h} edits: Δ mean turns</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {spectrum.axes.map((a) => (
            <tr key={a.axis} data-testid="spectrum-row" data-axis={a.axis}>
              <th scope="row" className="px-4 py-2 text-left font-medium">
                <span className="flex items-center gap-2">
                  <span aria-hidden className="size-2.5 rounded-sm" style={{ background: AXIS_COLOURS[a.axis] }} />
                  {a.axis}
                </span>
              </th>
              <td className="px-3 py-2 text-right tabular-nums text-zinc-600">{a.edits}</td>
              {(['passRate', 'meanTurns'] as const).map((m) => (
                <td key={`s-${m}`} className="px-3 py-2">
                  <DivergingBar spread={a.step[m]} limit={limits.step[m]} colour={AXIS_COLOURS[a.axis]!} metric={m} />
                </td>
              ))}
              {(['passRate', 'meanTurns'] as const).map((m) => (
                <td key={`c-${m}`} className="px-3 py-2">
                  <DivergingBar
                    spread={a.cumulative[m]}
                    limit={limits.cum[m]}
                    colour={AXIS_COLOURS[a.axis]!}
                    metric={m}
                    marker={a.step[m] && a.cumulative[m] ? a.step[m]!.mean * h : undefined}
                  />
                  <span className="block whitespace-nowrap pl-0.5 text-[11px] text-zinc-500">
                    {a.step[m] && a.cumulative[m] && `${h} × one edit ${signed(a.step[m]!.mean * h * UNITS[m].scale, UNITS[m].digits)} · `}n=
                    {a.cumulativeLineages}
                  </span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="border-t border-zinc-100 px-4 py-2 text-xs text-zinc-500">
        One edit: generation n against n − 1, grouped by the axis generation n took. {h} edits: generation {h} against the seed, in lineages that only took that
        axis (the dashed tick marks {h} × the one-edit mean; the paper found the two agree). Bars show the mean, whiskers ± one standard deviation; a single
        sample shows n = 1 and no whisker.
        {spectrum.mixed.lineages > 0 && ` ${spectrum.mixed.lineages} mixed-axis lineages reached generation ${h}.`}
      </p>
    </div>
  );
}
