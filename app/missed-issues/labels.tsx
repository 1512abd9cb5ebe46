// Small badges the missed-issue and rubric pages share.
const SEVERITY_CLASS: Record<string, string> = {
  low: 'bg-zinc-100 text-zinc-700',
  medium: 'bg-amber-100 text-amber-900',
  high: 'bg-orange-100 text-orange-900',
  critical: 'bg-red-100 text-red-900',
};

const STATE_CLASS: Record<string, string> = {
  open: 'bg-sky-100 text-sky-900',
  converted: 'bg-emerald-100 text-emerald-900',
  dismissed: 'bg-zinc-100 text-zinc-600',
  active: 'bg-emerald-100 text-emerald-900',
  inactive: 'bg-zinc-100 text-zinc-600',
  passed: 'bg-emerald-100 text-emerald-900',
  failed: 'bg-red-100 text-red-900',
  error: 'bg-orange-100 text-orange-900',
  unjudged: 'bg-zinc-100 text-zinc-600',
};

export function Badge({ value, kind = 'state' }: { value: string; kind?: 'state' | 'severity' }) {
  const cls = (kind === 'severity' ? SEVERITY_CLASS : STATE_CLASS)[value] ?? 'bg-zinc-100 text-zinc-700';
  return <span className={`inline-flex rounded px-1.5 py-0.5 text-xs font-medium ${cls}`}>{value}</span>;
}
