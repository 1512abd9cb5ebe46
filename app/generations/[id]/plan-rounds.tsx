import { formatTimestamp } from '@/lib/dashboard/index.ts';
import type { PlanRoundView } from '@/lib/dashboard/index.ts';
import { VerdictBadge } from '../../_components/verdict-badge.tsx';

// Every Loop 1 round: what the proposer planned and why, and what the plan reviewer answered.
export function PlanRounds({ rounds }: { rounds: PlanRoundView[] }) {
  if (rounds.length === 0) return <p className="text-sm text-zinc-500">No plan rounds recorded.</p>;
  return (
    <ol className="flex flex-col gap-3">
      {rounds.map((round) => (
        <li key={round.round} className="rounded-md border border-zinc-200 px-3 py-2" data-testid={`plan-round-${round.round}`}>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <span className="font-semibold">Round {round.round}</span>
            <span
              className={`rounded-full px-2 py-0.5 text-xs font-medium ${round.approved ? 'bg-emerald-50 text-emerald-800' : 'bg-amber-50 text-amber-900'}`}
            >
              {round.approved ? 'approved' : 'sent back'}
            </span>
            {round.edit && (
              <span className="text-xs text-zinc-600">
                {round.edit.axis} · {round.edit.effort} · {round.edit.inserted.length} inserted · {round.edit.replaced.length} replaced
              </span>
            )}
            <span className="ml-auto text-xs text-zinc-500">
              rubric {round.rubricVersion} · <time dateTime={round.createdAt}>{formatTimestamp(round.createdAt)}</time>
            </span>
          </div>
          {round.rationale && (
            <p className="mt-1.5 text-sm text-zinc-800">
              <span className="text-zinc-500">Rationale: </span>
              {round.rationale}
            </p>
          )}
          {round.reasons.length > 0 && (
            <ul className="mt-1.5 list-disc pl-5 text-sm text-amber-900">
              {round.reasons.map((reason, i) => (
                <li key={i}>{reason}</li>
              ))}
            </ul>
          )}
          {round.items.length > 0 && (
            <table className="mt-2 w-full text-left text-xs">
              <thead className="text-zinc-500">
                <tr>
                  <th scope="col" className="py-0.5 pr-3 font-medium">
                    Rubric item
                  </th>
                  <th scope="col" className="py-0.5 pr-3 font-medium">
                    Verdict
                  </th>
                  <th scope="col" className="py-0.5 font-medium">
                    Reason
                  </th>
                </tr>
              </thead>
              <tbody>
                {round.items.map((item) => (
                  <tr key={item.itemId} className="border-t border-zinc-100 align-top">
                    <td className="py-1 pr-3 font-mono">{item.label}</td>
                    <td className="py-1 pr-3">
                      <VerdictBadge verdict={item.verdict} />
                    </td>
                    <td className="py-1 text-zinc-700">{item.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </li>
      ))}
    </ol>
  );
}
