import { formatTimestamp } from '@/lib/dashboard/index.ts';
import type { StoredProfile } from '@/lib/rollout/index.ts';

const ms = (v: number | null) => (v === null ? '–' : `${v} ms`);

// The environment's last latency profile: percentiles at the concurrency it was measured at,
// under which policy, from how many rollouts — and those it could not report yet.
export function LatencyProfile({ profile }: { profile: StoredProfile | null }) {
  if (!profile) {
    return (
      <p className="text-sm text-zinc-500">
        Not profiled yet: <code>envolve profile VERSION --concurrency N --rollouts K</code>.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-1 text-sm" data-testid="latency-profile">
      <p>
        Rollout wall time under <strong>{profile.policy}</strong>, {profile.concurrency} at once, over {profile.samples} rollouts:{' '}
        <span className="tabular-nums">
          p50 {ms(profile.p50Ms)} · p95 {ms(profile.p95Ms)} · p99 {ms(profile.p99Ms)}
        </span>
      </p>
      {profile.needMoreSamples.length > 0 && <p className="text-xs text-zinc-600">Not reported: {profile.needMoreSamples.join('; ')}.</p>}
      <p>
        Concurrency ceiling: <span className="tabular-nums">{profile.concurrencyCeiling}</span>{' '}
        <span className="text-xs text-zinc-500">({profile.curve.map((p) => `${p.concurrency}: ${p.rolloutsPerMin}/min`).join(', ')})</span>
      </p>
      {profile.phaseP50Ms && (
        <p className="text-xs text-zinc-600" data-testid="latency-phases">
          Where a rollout&apos;s time goes (median per sandbox step, over the latency sample):{' '}
          <span className="tabular-nums">
            {Object.entries(profile.phaseP50Ms)
              .map(([step, value]) => `${step} ${value} ms`)
              .join(' · ')}
          </span>
        </p>
      )}
      <p className="text-xs text-zinc-500">
        measured <time dateTime={profile.createdAt}>{formatTimestamp(profile.createdAt)}</time>
      </p>
    </div>
  );
}
