// Does off-policy difficulty predict on-policy outcome? Per lineage: estimated D against the
// probes' measured pass rate (dots) and mean turns (rings), with Pearson r for each, and whose
// policy the outcomes are of.
import type { Correlation, DifficultyOutcomeRow } from '@/lib/drift/index.ts';

function formatR(c: Correlation): string {
  return c.r === null ? `— (n=${c.n})` : `${c.r.toFixed(2)} (n=${c.n})`;
}

// Plot area inside margins that hold the axes: D along the bottom, pass rate on the left (dots),
// mean turns on the right (rings).
const W = 280;
const H = 128;
const M = { left: 40, right: 40, top: 8, bottom: 32 };
const AXIS = 'var(--color-zinc-500)';
const TICK_FONT = 9;

function ticks(lo: number, hi: number): number[] {
  return lo === hi ? [lo] : [lo, (lo + hi) / 2, hi];
}

function Scatter({ points }: { points: DifficultyOutcomeRow['points'] }) {
  const ds = points.map((p) => p.d);
  const turns = points.flatMap((p) => (p.meanTurns === null ? [] : [p.meanTurns]));
  if (ds.length === 0) return null;
  const [dMin, dMax] = [Math.min(...ds), Math.max(...ds)];
  const tMax = Math.max(1, ...turns);
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const x = (d: number) => M.left + (dMax === dMin ? plotW / 2 : ((d - dMin) / (dMax - dMin)) * plotW);
  const yPass = (rate: number) => M.top + (1 - rate) * plotH;
  const yTurns = (t: number) => M.top + (1 - t / tMax) * plotH;
  const bottom = M.top + plotH;
  return (
    <svg
      width={W}
      height={H}
      role="img"
      aria-label={`estimated D (x, ${dMin.toFixed(2)} to ${dMax.toFixed(2)}) against pass rate (dots, %) and mean turns (rings), ${points.length} generations`}
      data-testid="outcome-scatter"
    >
      <rect x={M.left} y={M.top} width={plotW} height={plotH} fill="none" stroke="var(--color-zinc-200)" />
      <g fontSize={TICK_FONT} fill={AXIS} className="tabular-nums">
        {ticks(dMin, dMax).map((d) => (
          <g key={`x${d}`}>
            <line x1={x(d)} x2={x(d)} y1={bottom} y2={bottom + 3} stroke={AXIS} />
            <text x={x(d)} y={bottom + 12} textAnchor="middle">
              {d.toFixed(2)}
            </text>
          </g>
        ))}
        {[0, 0.5, 1].map((rate) => (
          <g key={`p${rate}`}>
            <line x1={M.left - 3} x2={M.left} y1={yPass(rate)} y2={yPass(rate)} stroke={AXIS} />
            <text x={M.left - 5} y={yPass(rate) + 3} textAnchor="end">
              {rate * 100}%
            </text>
          </g>
        ))}
        {ticks(0, tMax).map((t) => (
          <g key={`t${t}`}>
            <line x1={M.left + plotW} x2={M.left + plotW + 3} y1={yTurns(t)} y2={yTurns(t)} stroke={AXIS} />
            <text x={M.left + plotW + 5} y={yTurns(t) + 3} textAnchor="start">
              {Number.isInteger(t) ? t : t.toFixed(1)}
            </text>
          </g>
        ))}
        <text x={M.left + plotW / 2} y={H - 4} textAnchor="middle" fontSize={10}>
          estimated D (off-policy)
        </text>
        <text transform={`translate(10 ${M.top + plotH / 2}) rotate(-90)`} textAnchor="middle" fontSize={10} fill="var(--color-sky-600)">
          pass rate • (%)
        </text>
        <text transform={`translate(${W - 6} ${M.top + plotH / 2}) rotate(90)`} textAnchor="middle" fontSize={10} fill="var(--color-amber-600)">
          mean turns ○
        </text>
      </g>
      {points.map((p, i) => (
        <g key={i}>
          {p.passRate !== null && <circle cx={x(p.d)} cy={yPass(p.passRate)} r={2.5} fill="var(--color-sky-600)" />}
          {p.meanTurns !== null && <circle cx={x(p.d)} cy={yTurns(p.meanTurns)} r={2.5} fill="none" stroke="var(--color-amber-600)" />}
        </g>
      ))}
    </svg>
  );
}

export function DifficultyOutcomeTable({ rows }: { rows: DifficultyOutcomeRow[] }) {
  if (rows.length === 0) return <p className="text-sm text-zinc-500">No lineages.</p>;
  return (
    <table className="text-sm">
      <thead className="text-left text-xs text-zinc-500">
        <tr>
          <th className="pr-4 font-medium">Lineage</th>
          <th className="pr-4 font-medium">Policy</th>
          <th className="pr-4 font-medium">r(D, pass rate)</th>
          <th className="pr-4 font-medium">r(D, mean turns)</th>
          <th className="font-medium">D → pass rate • / turns ○</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.lineageId ?? `all-${row.policy}`} className="border-t border-zinc-100">
            <td className="py-1 pr-4">{row.name}</td>
            <td className="pr-4" data-testid="outcome-policy">
              {row.policy}
              {row.simulated && (
                <span className="ml-1.5 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">simulated: tests the pipeline, not the method</span>
              )}
            </td>
            <td className="pr-4 tabular-nums">{formatR(row.passRate)}</td>
            <td className="pr-4 tabular-nums">{formatR(row.meanTurns)}</td>
            <td className="py-1">{row.lineageId && <Scatter points={row.points} />}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
