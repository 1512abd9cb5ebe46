import Link from 'next/link';
import { ProbeGroupState } from '@/lib/gate/index.ts';
import type { LineageGate } from '@/lib/gate/index.ts';
import type { ProbeGroupView } from '@/lib/scheduler/index.ts';

const GATE_TEXT: Record<string, string> = {
  'released-next': 'cleared the bar: the next generation was released',
  held: 'below the bar: the next generation is held back',
  saturated: 'saturated: evolution of the next generation was requested',
  'no-next': 'cleared the bar; no approved next generation yet',
  refused: "not counted: not the lineage's probe policy, too small, or simulated outside demo mode",
};

function PassBar({ passes, size, releaseAt }: { passes: number; size: number; releaseAt: number }) {
  return (
    <div className="relative flex h-2.5 w-full gap-px overflow-hidden rounded-sm" aria-hidden>
      {Array.from({ length: size }, (_, i) => (
        <span key={i} className={`flex-1 ${i < passes ? 'bg-emerald-500' : 'bg-zinc-200'}`} />
      ))}
      <span className="absolute inset-y-0 w-0.5 bg-zinc-900" style={{ left: `${(releaseAt / size) * 100}%` }} title={`release bar ${releaseAt}/${size}`} />
    </div>
  );
}

// The probes of this generation's version: pass counts against the lineage's release bar, and
// every rollout. Only groups of the lineage's probe policy can release.
export function Probes({ groups, rule }: { groups: ProbeGroupView[]; rule: LineageGate }) {
  const ruleText = `released by ${rule.policy} groups of ≥ ${rule.minGroup} rollouts passing ≥ ${(rule.releaseRate * 100).toFixed(1)}%; timeouts score ${rule.timeoutReward}${rule.demoMode ? ' (demo mode)' : ''}`;
  if (groups.length === 0) return <p className="text-sm text-zinc-500">Not probed yet: generations are probed once approved ({ruleText}).</p>;
  return (
    <ul className="flex flex-col gap-4" data-testid="probe-groups">
      <li className="text-xs text-zinc-600" data-testid="gate-rule">
        Gate: {ruleText}
      </li>
      {groups.map((g) => (
        <li key={g.id} className="flex flex-col gap-1.5">
          <div className="flex items-baseline justify-between gap-2 text-sm">
            <span className="font-medium tabular-nums" data-testid="probe-passes">
              {g.passes}/{g.size} passed
            </span>
            <span className="text-xs text-zinc-600">
              {g.purpose} · {g.policy}
              {g.simulated && <span className="ml-1 rounded bg-amber-100 px-1 text-amber-900">simulated</span>}
            </span>
          </div>
          <PassBar passes={g.passes} size={g.size} releaseAt={Math.ceil(rule.releaseRate * g.size)} />
          <p className="text-xs text-zinc-600">
            {g.state !== ProbeGroupState.complete ? g.state : ((g.gate && GATE_TEXT[g.gate]) ?? ProbeGroupState.complete)}
            {g.timeouts > 0 && ` · ${g.timeouts} timed out`}
            {g.errors > 0 && ` · ${g.errors} sandbox errors`}
          </p>
          {g.rollouts.length > 0 && (
            <ol className="flex flex-wrap gap-1 text-xs">
              {g.rollouts.map((r) => (
                <li key={r.id}>
                  <Link
                    href={`/trajectories/${r.id}`}
                    className={`inline-block rounded border px-1.5 py-0.5 font-mono tabular-nums hover:underline ${r.passed ? 'border-emerald-300 bg-emerald-50 text-emerald-900' : 'border-zinc-200 text-zinc-700'}`}
                    title={`attempt ${r.attempt}: ${r.status}, reward ${r.reward ?? '–'}, ${r.turns} turns`}
                  >
                    #{r.attempt} {r.reward ?? (r.timedOut ? 'timeout' : '–')}
                  </Link>
                </li>
              ))}
            </ol>
          )}
        </li>
      ))}
    </ul>
  );
}
