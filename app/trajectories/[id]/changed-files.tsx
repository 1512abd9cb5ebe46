'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchJson } from '@/app/_components/http.ts';
import { formatBytes } from '@/lib/dashboard/browser.ts';
import type { ChangedFile } from '@/lib/trajectories/index.ts';

interface FileContent {
  path: string;
  size: number;
  content: string;
  binary: boolean;
}

// The artifacts the agent produced, which the verifier should have graded; content loads on click.
export function ChangedFiles({ trajectoryId, files }: { trajectoryId: string; files: ChangedFile[] }) {
  const [open, setOpen] = useState<string | null>(null);
  const content = useQuery({
    queryKey: ['trajectory-file', trajectoryId, open],
    queryFn: () => fetchJson<FileContent>(`/api/trajectories/${trajectoryId}/files?path=${encodeURIComponent(open ?? '')}`),
    enabled: open !== null,
  });
  if (files.length === 0) return <p className="text-sm text-zinc-500">The agent changed no file.</p>;
  return (
    <div className="flex flex-col gap-2">
      <ul className="flex flex-col text-sm">
        {files.map((file) => (
          <li key={file.path}>
            <button
              type="button"
              onClick={() => setOpen(open === file.path ? null : file.path)}
              aria-expanded={open === file.path}
              className={`flex w-full justify-between gap-2 rounded px-2 py-1 text-left font-mono text-xs hover:bg-zinc-50 ${open === file.path ? 'bg-zinc-100' : ''}`}
            >
              <span className="truncate">{file.path}</span>
              <span className="text-zinc-500">{formatBytes(file.size)}</span>
            </button>
          </li>
        ))}
      </ul>
      {open !== null && (
        <pre className="max-h-96 overflow-auto rounded bg-zinc-50 px-2 py-1.5 font-mono text-xs ring-1 ring-zinc-200" data-testid="file-content">
          {content.isPending ? 'Loading…' : content.error ? content.error.message : content.data?.binary ? '(binary file)' : content.data?.content}
        </pre>
      )}
    </div>
  );
}
