import { formatTimestamp } from '@/lib/dashboard/index.ts';
import type { SeedFunnelVerdictKind } from '@/lib/gate/index.ts';
import type { LineageSeedFunnel } from '@/lib/evolution/index.ts';

const VERDICTS: Record<SeedFunnelVerdictKind, { label: string; className: string }> = {
  kept: { label: 'kept', className: 'bg-emerald-100 text-emerald-900' },
  'not-kept': { label: 'not kept', className: 'bg-red-100 text-red-900' },
  waiting: { label: 'waiting', className: 'bg-zinc-100 text-zinc-700' },
  undecidable: { label: 'cannot decide with this policy', className: 'bg-amber-100 text-amber-900' },
};

// The seed funnel's verdict on the seed now, under the lineage's gate, and why the lineage may
// evolve when the funnel has not kept its seed: an override someone recorded, or generations made
// before (the funnel is asked before the first one).
export function SeedFunnel({ funnel }: { funnel: LineageSeedFunnel }) {
  const { verdict, override, evolved } = funnel;
  const tone = VERDICTS[verdict.kind];
  return (
    <section aria-labelledby="seed-funnel" className="flex flex-col gap-1.5 text-sm">
      <h2 id="seed-funnel" className="text-sm font-semibold">
        Seed funnel
      </h2>
      <p data-testid="seed-funnel-verdict">
        <span className={`mr-2 rounded px-1.5 py-0.5 text-xs font-medium ${tone.className}`}>{tone.label}</span>
        {verdict.message}
      </p>
      {override ? (
        <p data-testid="seed-funnel-override" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
          Overridden{override.demoMode ? ' (demo mode)' : ''} by <span className="font-medium">{override.by}</span> on{' '}
          <time dateTime={override.at}>{formatTimestamp(override.at)}</time>: &ldquo;{override.reason}&rdquo;. The funnel then said: {override.verdict.message}
        </p>
      ) : verdict.kind === 'kept' ? null : evolved ? (
        <p className="text-zinc-600">Evolving it further does not ask the funnel again: the lineage has generations.</p>
      ) : (
        <p data-testid="seed-funnel-refused" className="text-zinc-600">
          Evolution is refused until the funnel keeps the seed. To evolve it anyway, with a reason kept on the lineage:{' '}
          <code className="rounded bg-zinc-100 px-1 py-0.5 text-xs">envolve evolve {verdict.seedVersionId.slice(0, 12)} --force --reason &quot;…&quot;</code>
        </p>
      )}
    </section>
  );
}
