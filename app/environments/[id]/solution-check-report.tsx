// The per-run, per-step account of a counter-check or near-miss run: its score (for near misses,
// the mutation score: near misses rejected of those written), then one row per solution run with
// its reward, each step's test result and why the tests caught it or let it through.
import type { SolutionCheckReport } from '@/lib/validate/index.ts';
import { VerdictBadge } from '../../_components/verdict-badge.tsx';

const OUTCOME_VERDICT: Record<string, string> = { caught: 'passed', 'let-through': 'failed', error: 'error' };
const OUTCOME_LABEL: Record<string, string> = { caught: 'rejected', 'let-through': 'let through', error: 'not judged' };

function scoreLine(report: SolutionCheckReport): string {
  if (report.kind === 'near-miss') {
    return `Mutation score ${report.caught}/${report.total}: near misses the tests rejected (reward 0 and their own step failed) of the ${report.total} the bundle carries`;
  }
  const scope = report.checkedSteps
    ? `the changed or added ${report.checkedSteps.length === 1 ? 'step' : 'steps'} ${report.checkedSteps.join(', ')}`
    : 'the whole task';
  return `${report.caught}/${report.total} runs of earlier reference solutions rejected on ${scope} (each ancestor's solution on the data as it is, then with wrappers and noise undone)`;
}

export function SolutionCheckTable({ report }: { report: SolutionCheckReport }) {
  return (
    <div data-testid={`${report.kind}-report`} className="flex flex-col gap-1">
      <p className="text-xs font-medium text-zinc-700" data-testid={`${report.kind}-score`}>
        {scoreLine(report)}
      </p>
      <table className="w-full text-left text-xs">
        <thead className="text-zinc-500">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              {report.kind === 'near-miss' ? 'Near miss' : 'Earlier solution'}
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Reward
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Steps
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Outcome
            </th>
            <th scope="col" className="py-1 font-medium">
              Why
            </th>
          </tr>
        </thead>
        <tbody>
          {report.runs.map((run) => (
            <tr key={run.id} data-testid="solution-check-run" className="border-t border-zinc-100 align-top">
              <td className="py-1 pr-3 font-mono text-zinc-800">{run.label}</td>
              <td className="py-1 pr-3 tabular-nums">{run.reward ?? '—'}</td>
              <td className="py-1 pr-3 font-mono">{run.steps.map((s) => `${s.stepId} ${s.status}`).join(', ') || '—'}</td>
              <td className="py-1 pr-3">
                <span className="inline-flex items-center gap-1">
                  <VerdictBadge verdict={OUTCOME_VERDICT[run.outcome] ?? run.outcome} />
                  <span className="text-zinc-600">{OUTCOME_LABEL[run.outcome] ?? run.outcome}</span>
                </span>
              </td>
              <td className="whitespace-pre-wrap break-words py-1 text-zinc-700">{run.why}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
