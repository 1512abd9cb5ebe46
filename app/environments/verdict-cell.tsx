import { formatDuration, shortHash } from '@/lib/dashboard/browser.ts';
import type { VerdictSummary } from '@/lib/dashboard/index.ts';
import { RewardText, VerdictBadge } from '../_components/verdict-badge.tsx';

// The latest verdict of one validator kind, with the facts that explain it.
export function VerdictCell({ summary, pending }: { summary: VerdictSummary | null; pending: boolean }) {
  return (
    <div className="flex flex-col gap-1">
      <div>
        <VerdictBadge verdict={summary?.verdict ?? null} pending={pending} />
      </div>
      {summary && (
        <div className="text-xs text-zinc-500">
          <RewardText reward={summary.reward} expected={summary.expectedReward} />
          <div className="flex gap-2">
            {summary.imageId && (
              <span className="font-mono" title={summary.imageId}>
                {shortHash(summary.imageId)}
              </span>
            )}
            <span className="tabular-nums">{formatDuration(summary.totalDurationMs)}</span>
          </div>
        </div>
      )}
    </div>
  );
}
