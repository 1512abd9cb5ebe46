import { GenerationState } from '@/lib/states/index.ts';

const S = GenerationState;
const STATE_STYLES: Partial<Record<string, string>> = {
  [S.awaitingReview]: 'bg-blue-50 text-blue-800 ring-blue-600/20',
  [S.approved]: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20',
  [S.released]: 'bg-emerald-100 text-emerald-900 ring-emerald-700/30',
  [S.rejected]: 'bg-red-50 text-red-800 ring-red-600/20',
  [S.failed]: 'bg-red-50 text-red-800 ring-red-600/20',
  [S.changesRequested]: 'bg-amber-50 text-amber-900 ring-amber-600/30',
  [S.needsAttention]: 'bg-fuchsia-50 text-fuchsia-900 ring-fuchsia-600/30',
};

export function StateBadge({ state }: { state: string }) {
  const style = STATE_STYLES[state] ?? 'bg-zinc-100 text-zinc-700 ring-zinc-500/20';
  return (
    <span data-testid="generation-state" className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${style}`}>
      {state}
    </span>
  );
}
