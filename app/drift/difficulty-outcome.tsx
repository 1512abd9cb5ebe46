// Does off-policy difficulty predict on-policy outcome? Per lineage: estimated D against the
// probes' measured pass rate (dots) and mean turns (rings, outcome-scatter.tsx), with Pearson r
// for each, and whose policy the outcomes are of.
import { wireOutcomePoints, type Correlation, type DifficultyOutcomeRow } from '@/lib/drift/index.ts';
import { OutcomeScatter, PointMarkers } from './outcome-scatter.tsx';

function formatR(c: Correlation): string {
  return c.r === null ? `— (n=${c.n})` : `${c.r.toFixed(2)} (n=${c.n})`;
}

export function DifficultyOutcomeTable({ rows }: { rows: DifficultyOutcomeRow[] }) {
  if (rows.length === 0) return <p className="text-sm text-zinc-500">No lineages.</p>;
  return (
    <>
      <PointMarkers />
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
              <td className="py-1">{row.lineageId && <OutcomeScatter points={wireOutcomePoints(row.points)} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
