'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { AttemptComparison, ResidualFileSummary } from '@/lib/dashboard/index.ts';
import { formatBytes } from '@/lib/dashboard/browser.ts';
import { fetchJson } from '../../_components/http.ts';
import { FileDiff } from './file-diff.tsx';

const OP_WORDS: Record<ResidualFileSummary['op'], string> = { add: 'added', modify: 'changed', delete: 'removed' };

// Two attempts' candidates compared file by file: what a retry or a reviewer's revision changed.
// The reviewer picks the two (by default the newest and the one before); a file's diff loads when opened.
export function AttemptDiff({ generationId, attempts }: { generationId: string; attempts: number[] }) {
  const [from, setFrom] = useState(attempts.at(-2) ?? 1);
  const [to, setTo] = useState(attempts.at(-1) ?? 1);
  const comparison = useQuery({
    queryKey: ['attempt-diff', generationId, from, to],
    queryFn: () => fetchJson<AttemptComparison>(`/api/generations/${generationId}/attempt-diff?from=${from}&to=${to}`),
    enabled: from !== to,
    staleTime: Infinity,
  });
  const picker = (label: string, value: number, onChange: (n: number) => void) => (
    <label className="flex items-center gap-1.5 text-xs text-zinc-700">
      {label}
      <select value={value} onChange={(event) => onChange(Number(event.target.value))} className="rounded border border-zinc-300 px-1.5 py-0.5 text-xs">
        {attempts.map((n) => (
          <option key={n} value={n}>
            attempt {n}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className="flex flex-col gap-2" data-testid="attempt-diff">
      <div className="flex flex-wrap items-center gap-3">
        {picker('From', from, setFrom)}
        {picker('to', to, setTo)}
      </div>
      {from === to ? (
        <p className="text-sm text-zinc-500">Pick two different attempts.</p>
      ) : comparison.isPending ? (
        <p className="text-xs text-zinc-500">
          Comparing attempts {from} and {to}…
        </p>
      ) : comparison.isError ? (
        <p role="alert" className="text-xs text-red-700">
          Could not compare the attempts: {comparison.error.message}
        </p>
      ) : comparison.data.files.length === 0 ? (
        <p className="text-sm text-zinc-500">
          Attempts {from} and {to} built the same candidate.
        </p>
      ) : (
        <>
          <p className="text-xs text-zinc-600" data-testid="attempt-diff-count">
            {comparison.data.files.length} {comparison.data.files.length === 1 ? 'file differs' : 'files differ'} from attempt {from} to attempt {to}
          </p>
          <ul className="flex flex-col gap-1.5">
            {comparison.data.files.map((file) => (
              <AttemptDiffFile key={`${from}-${to}-${file.path}`} generationId={generationId} from={from} to={to} file={file} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function AttemptDiffFile({ generationId, from, to, file }: { generationId: string; from: number; to: number; file: ResidualFileSummary }) {
  const [open, setOpen] = useState(false);
  const size = (n: number | null) => (n === null ? '—' : formatBytes(n));
  return (
    <li className="rounded-md border border-zinc-300 bg-white" data-testid="attempt-diff-file" data-path={file.path}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1.5">
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          className="flex min-w-0 flex-1 items-center gap-2 rounded text-left text-sm focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <span aria-hidden className={`inline-block transition-transform ${open ? 'rotate-90' : ''}`}>
            ▸
          </span>
          <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-[11px] font-semibold text-zinc-800">{OP_WORDS[file.op]}</span>
          <span className="truncate font-mono text-xs">{file.path}</span>
        </button>
        <span className="text-xs tabular-nums text-zinc-500">
          {size(file.oldSize)} → {size(file.newSize)}
        </span>
        {file.executableChanged && <span className="rounded bg-zinc-200 px-1.5 text-[11px] text-zinc-700">mode changed</span>}
      </div>
      {open && (
        <div className="border-t border-zinc-200">
          <FileDiff generationId={generationId} source={{ kind: 'attempts', from, to }} path={file.path} wrap />
        </div>
      )}
    </li>
  );
}
