import Link from 'next/link';
import type { DriftAlert } from '@/lib/drift/index.ts';

const KIND_LABEL: Record<DriftAlert['kind'], string> = {
  'no-signal': 'no signal',
  'waiting-for-group': 'waiting for a group',
  stalled: 'stalled',
  'rejection-spike': 'rejections',
  'flat-difficulty': 'flat difficulty',
  'calibration-stale': 'calibration',
};

// Alerts, critical first. Each names its lineage (its drift view), and the generation or set.
export function AlertsList({ alerts, shown = 8 }: { alerts: DriftAlert[]; shown?: number }) {
  if (alerts.length === 0) {
    return (
      <p className="rounded-lg border border-zinc-200 bg-white px-4 py-3 text-sm text-zinc-600">
        No alerts: no frontier has waited past the threshold for a group that counts, none has gone unreleased too long, none is flat or unsolved.
      </p>
    );
  }
  const counts = new Map<string, number>();
  for (const a of alerts) counts.set(a.kind, (counts.get(a.kind) ?? 0) + 1);
  const row = (a: DriftAlert, i: number) => (
    <li
      key={i}
      data-testid="drift-alert"
      data-kind={a.kind}
      className="grid grid-cols-[6.5rem_minmax(0,13rem)_minmax(0,1fr)_auto] items-baseline gap-x-3 px-4 py-2 text-sm"
    >
      <span
        className={`inline-flex justify-center rounded px-1.5 py-0.5 text-[11px] font-medium ${a.severity === 'critical' ? 'bg-red-50 text-red-700 ring-1 ring-red-200' : 'bg-amber-50 text-amber-800 ring-1 ring-amber-200'}`}
      >
        {KIND_LABEL[a.kind]}
      </span>
      {a.lineageId ? (
        <Link
          href={`/drift?lineage=${encodeURIComponent(a.lineageId)}`}
          className="truncate font-medium text-blue-700 hover:underline"
          data-testid="alert-lineage"
        >
          {a.lineageName}
        </Link>
      ) : (
        <Link href={a.href} className="truncate font-medium text-blue-700 hover:underline">
          {a.calibrationSetId ? 'calibration set' : a.title}
        </Link>
      )}
      <span className="min-w-0 truncate" title={a.detail}>
        <span className="text-zinc-800">{a.title}</span> <span className="text-zinc-500">· {a.detail}</span>
      </span>
      <span className="flex justify-end gap-3 whitespace-nowrap text-xs">
        {a.generationId && (
          <Link href={`/generations/${a.generationId}`} className="text-blue-700 hover:underline">
            generation {a.generationNumber}
          </Link>
        )}
        {a.lineageId && (
          <Link href={`/lineages/${a.lineageId}`} className="text-zinc-500 hover:text-zinc-900 hover:underline">
            tree
          </Link>
        )}
      </span>
    </li>
  );
  return (
    <div className="rounded-lg border border-zinc-200 bg-white shadow-xs">
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-100 px-4 py-2 text-xs text-zinc-600">
        {[...counts].map(([kind, n]) => (
          <span key={kind} className="rounded-full bg-zinc-100 px-2 py-0.5">
            {KIND_LABEL[kind as DriftAlert['kind']]} <span className="font-semibold tabular-nums text-zinc-900">{n}</span>
          </span>
        ))}
      </div>
      <ul className="divide-y divide-zinc-100">{alerts.slice(0, shown).map(row)}</ul>
      {alerts.length > shown && (
        <details className="border-t border-zinc-100">
          <summary className="cursor-pointer px-4 py-2 text-xs font-medium text-zinc-600 hover:text-zinc-900">{alerts.length - shown} more alerts</summary>
          <ul className="divide-y divide-zinc-100">{alerts.slice(shown).map((a, i) => row(a, i + shown))}</ul>
        </details>
      )}
    </div>
  );
}
