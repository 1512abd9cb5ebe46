import { describeReason, type SuspicionReason } from '@/lib/trajectories/index.ts';
import { formatReward } from '@/lib/dashboard/index.ts';

const PILL = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset';

// A score is always shown with where it came from: a simulated policy's reward is no evidence.
export function RewardPill({ reward, passed, simulated }: { reward: number | null; passed: boolean | null; simulated: boolean }) {
  const tone = passed
    ? 'bg-emerald-50 text-emerald-800 ring-emerald-600/20'
    : reward === null
      ? 'bg-zinc-100 text-zinc-600 ring-zinc-500/20'
      : 'bg-red-50 text-red-800 ring-red-600/20';
  return (
    <span className="inline-flex items-center gap-1">
      <span className={`${PILL} tabular-nums ${tone}`} data-testid="reward">
        {formatReward(reward)}
      </span>
      {simulated && <SimulatedLabel />}
    </span>
  );
}

export function SimulatedLabel() {
  return (
    <span className={`${PILL} bg-violet-50 text-violet-800 ring-violet-600/20`} title="Scored from a simulated policy, not a model">
      simulated
    </span>
  );
}

export function ReasonBadges({ reasons }: { reasons: SuspicionReason[] }) {
  if (reasons.length === 0) return null;
  return (
    <span className="flex flex-wrap gap-1" data-testid="suspicion">
      {reasons.map((reason) => (
        <span key={reason.kind} className={`${PILL} bg-amber-50 text-amber-900 ring-amber-600/30`}>
          {describeReason(reason)}
        </span>
      ))}
    </span>
  );
}

export function FlagLabel({ children }: { children: string }) {
  return <span className={`${PILL} bg-red-600 text-white ring-red-700`}>{children}</span>;
}
