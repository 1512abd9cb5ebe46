'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { LogPhase } from '@/lib/dashboard/index.ts';

async function fetchLog(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.text();
}

// A collapsed log that loads only when opened: logs can be large and most are never read.
export function RunLog({ runId, phase }: { runId: string; phase: LogPhase }) {
  const [opened, setOpened] = useState(false);
  const url = `/api/validator-runs/${runId}/log?phase=${phase}`;
  // A finished run's log never changes.
  const log = useQuery({ queryKey: ['run-log', runId, phase], queryFn: () => fetchLog(url), enabled: opened, staleTime: Infinity });
  const title = phase === 'agent' ? 'Agent log' : 'Verifier log';

  return (
    <details className="group rounded-md border border-zinc-200" onToggle={(event) => setOpened(opened || event.currentTarget.open)}>
      <summary className="flex cursor-pointer select-none items-center justify-between gap-2 px-3 py-1.5 text-xs font-medium text-zinc-700 hover:bg-zinc-50">
        <span>
          <span aria-hidden className="mr-1 inline-block transition-transform group-open:rotate-90">
            ▸
          </span>
          {title}
        </span>
        <a href={url} target="_blank" rel="noreferrer" className="font-normal text-blue-700 hover:underline">
          raw
        </a>
      </summary>
      <div className="border-t border-zinc-200">
        {log.isPending ? (
          <p className="px-3 py-2 text-xs text-zinc-500">Loading…</p>
        ) : log.isError ? (
          <p role="alert" className="px-3 py-2 text-xs text-red-700">
            Could not load the log: {log.error.message}
          </p>
        ) : (
          <pre
            tabIndex={0}
            aria-label={title}
            data-testid={`${phase}-log`}
            className="max-h-96 overflow-auto whitespace-pre bg-zinc-950 px-3 py-2 font-mono text-xs leading-relaxed text-zinc-100"
          >
            {log.data === '' ? '(empty)' : log.data}
          </pre>
        )}
      </div>
    </details>
  );
}
