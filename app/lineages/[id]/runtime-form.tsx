'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { ResolvedSandboxRuntime } from '@/lib/sandbox/index.ts';

const FIELD = 'h-8 rounded-md border border-zinc-300 bg-white px-2 text-sm';
const DEFAULT = 'default';

// Leads choose the runtime of the lineage's later trials and checks; "deployment default"
// follows ENVOLVE_SANDBOX_RUNTIME. An environment's task.toml may still require runsc.
export function RuntimeForm({ lineageId, current }: { lineageId: string; current: ResolvedSandboxRuntime }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const chosen = String(new FormData(event.currentTarget).get('sandboxRuntime'));
    setPending(true);
    setMessage(null);
    const response = await fetch(`/api/lineages/${lineageId}/sandbox-runtime`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sandboxRuntime: chosen === DEFAULT ? null : chosen }),
    });
    const answer = (await response.json().catch(() => ({}))) as { sandboxRuntime?: ResolvedSandboxRuntime; message?: string };
    setPending(false);
    if (!response.ok) {
      setMessage(answer.message ?? `the runtime was not changed (HTTP ${response.status})`);
      return;
    }
    setMessage(`runtime saved: later trials run under ${answer.sandboxRuntime?.runtime}`);
    router.refresh();
  }

  return (
    <section aria-labelledby="sandbox-runtime" className="flex flex-col gap-2 text-sm">
      <h2 id="sandbox-runtime" className="font-semibold">
        Sandbox runtime
      </h2>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2" data-testid="runtime-form">
        <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
          Runtime
          <select name="sandboxRuntime" defaultValue={current.source === 'lineage' ? current.runtime : DEFAULT} className={FIELD}>
            <option value={DEFAULT}>deployment default</option>
            <option value="runc">runc</option>
            <option value="runsc">runsc (gVisor)</option>
          </select>
        </label>
        <button type="submit" disabled={pending} className="h-8 rounded-md bg-zinc-900 px-3 text-sm font-medium text-white disabled:opacity-50">
          Save runtime
        </button>
      </form>
      {message && (
        <p role="status" data-testid="runtime-message" className="text-zinc-700">
          {message}
        </p>
      )}
    </section>
  );
}
