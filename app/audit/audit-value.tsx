// One side of an audit entry's before → after: compact JSON, or a dash when there was nothing.
export function AuditValue({ value }: { value: unknown }) {
  if (value === undefined || value === null) return <span className="text-zinc-400">—</span>;
  return (
    <code className="min-w-0 flex-1 whitespace-pre-wrap break-all rounded bg-zinc-50 px-1.5 py-0.5 font-mono text-xs text-zinc-700">
      {JSON.stringify(value)}
    </code>
  );
}
