// Does off-policy difficulty predict on-policy outcome? Per lineage: estimated D against the
// probes' measured pass rate (dots) and mean turns (rings), with Pearson r for each, and whose
// policy the outcomes are of.
import type { Correlation, DifficultyOutcomeRow } from '@/lib/drift/difficulty-outcome.ts';

const W = 160;
const H = 48;

function formatR(c: Correlation): string {
  return c.r === null ? `— (n=${c.n})` : `${c.r.toFixed(2)} (n=${c.n})`;
}

function Scatter({ points }: { points: DifficultyOutcomeRow['points'] }) {
  const ds = points.map((p) => p.d);
  const turns = points.flatMap((p) => (p.meanTurns === null ? [] : [p.meanTurns]));
  if (ds.length === 0) return null;
  const [dMin, dMax] = [Math.min(...ds), Math.max(...ds)];
  const tMax = Math.max(1, ...turns);
  const x = (d: number) => 4 + ((d - dMin) / Math.max(dMax - dMin, 1e-9)) * (W - 8);
  return (
    <svg width={W} height={H} role="img" aria-label="estimated D (x) against pass rate (dots) and mean turns (rings)">
      <rect x={0.5} y={0.5} width={W - 1} height={H - 1} fill="none" stroke="#e4e4e7" />
      {points.map((p, i) => (
        <g key={i}>
          {p.passRate !== null && <circle cx={x(p.d)} cy={4 + (1 - p.passRate) * (H - 8)} r={2.5} fill="#0284c7" />}
          {p.meanTurns !== null && <circle cx={x(p.d)} cy={H - 4 - (p.meanTurns / tMax) * (H - 8)} r={2.5} fill="none" stroke="#d97706" />}
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
