import { formatReward } from '@/lib/dashboard/browser.ts';

const VERDICT_STYLES: Record<string, string> = {
  passed: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20',
  failed: 'bg-red-50 text-red-800 ring-red-600/20',
  error: 'bg-amber-50 text-amber-800 ring-amber-600/30',
};
const NEUTRAL_STYLE = 'bg-zinc-100 text-zinc-600 ring-zinc-500/20';
const PENDING_STYLE = 'bg-blue-50 text-blue-800 ring-blue-600/20';

// A verdict as a coloured pill; "pending" while a validation job is queued or running.
export function VerdictBadge({ verdict, pending = false }: { verdict: string | null; pending?: boolean }) {
  const label = pending ? 'pending' : (verdict ?? 'not run');
  const style = pending ? PENDING_STYLE : verdict ? (VERDICT_STYLES[verdict] ?? NEUTRAL_STYLE) : NEUTRAL_STYLE;
  return (
    <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${style}`}>
      {pending && <span aria-hidden className="size-1.5 animate-pulse rounded-full bg-blue-600" />}
      {label}
    </span>
  );
}

export function RewardText({ reward, expected }: { reward: number | null; expected: number }) {
  return (
    <span className="tabular-nums">
      reward {formatReward(reward)}
      <span className="text-zinc-400"> / expected {formatReward(expected)}</span>
    </span>
  );
}
