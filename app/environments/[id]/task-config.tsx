import type { TaskTomlSection } from '@/lib/dashboard/index.ts';

// task.toml as labelled key/value groups, with the raw file one click away.
export function TaskConfig({ sections, error, raw }: { sections: TaskTomlSection[]; error: string | null; raw: string }) {
  return (
    <div className="flex flex-col gap-3">
      {error && (
        <p role="note" className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-800">
          task.toml does not parse: {error}
        </p>
      )}
      {sections.map((section) => (
        <div key={section.name}>
          <h3 className="mb-1 font-mono text-xs font-medium text-zinc-500">{section.name ? `[${section.name}]` : 'top level'}</h3>
          <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-0.5 text-sm">
            {section.entries.map((entry) => (
              <div key={entry.key} className="contents">
                <dt className="font-mono text-xs leading-5 text-zinc-600">{entry.key}</dt>
                <dd className="break-words leading-5 text-zinc-900">{entry.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
      <details className="rounded-md border border-zinc-200">
        <summary className="cursor-pointer px-3 py-1.5 text-xs font-medium text-zinc-700 hover:bg-zinc-50">Raw task.toml</summary>
        <pre tabIndex={0} className="max-h-80 overflow-auto border-t border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-xs">
          {raw}
        </pre>
      </details>
    </div>
  );
}
