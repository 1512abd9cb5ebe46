import { LineageStatus, LineageWorkStatus } from '@/lib/states/index.ts';

const STATUS_STYLES: Record<string, string> = {
  idle: 'bg-zinc-100 text-zinc-700 ring-zinc-500/20',
  evolving: 'bg-blue-50 text-blue-800 ring-blue-600/20',
  queued: 'bg-sky-50 text-sky-800 ring-sky-600/20',
  starting: 'bg-sky-50 text-sky-800 ring-sky-600/20',
  stalled: 'bg-amber-50 text-amber-800 ring-amber-600/30',
  exhausted: 'bg-yellow-50 text-yellow-900 ring-yellow-700/30',
};

// Work under way or waiting in the queue: the page keeps asking until it settles.
export const LIVE_LINEAGE_STATUSES: readonly string[] = [LineageStatus.evolving, LineageWorkStatus.queued, LineageWorkStatus.starting];

export function LineageStatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_STYLES[status] ?? STATUS_STYLES.idle}`}
    >
      {status === 'evolving' && <span aria-hidden className="size-1.5 animate-pulse rounded-full bg-blue-600" />}
      {status}
    </span>
  );
}
