'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { LineageTree } from '@/lib/dashboard/index.ts';

const FIELD = 'h-8 rounded-md border border-zinc-300 bg-white px-2 text-sm';

// Leads choose the reference priors the lineage's later generations' D is measured under: the
// shipped table or a version fitted with `envolve priors fit`. The server checks the role and
// that the version is stored; earlier generations keep the D (and its table) they were stored with.
export function PriorsForm({ lineageId, priors }: { lineageId: string; priors: LineageTree['priors'] }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const chosen = String(new FormData(event.currentTarget).get('priors'));
    setPending(true);
    setMessage(null);
    const response = await fetch(`/api/lineages/${lineageId}/priors`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ priors: chosen }),
    });
    const answer = (await response.json().catch(() => ({}))) as { priors?: { version: string }; message?: string };
    setPending(false);
    if (!response.ok) {
      setMessage(answer.message ?? `the priors were not changed (HTTP ${response.status})`);
      return;
    }
    setMessage(`priors saved: later generations are measured under ${answer.priors?.version}`);
    router.refresh();
  }

  return (
    <section aria-labelledby="lineage-priors" className="flex flex-col gap-2 text-sm">
      <h2 id="lineage-priors" className="font-semibold">
        Reference priors
      </h2>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2" data-testid="priors-form">
        <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
          Table
          <select name="priors" defaultValue={priors.version} key={priors.version} className={FIELD}>
            {priors.choices.map((c) => (
              <option key={c.version} value={c.version}>
                {c.version} — {c.description}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={pending} className="h-8 rounded-md bg-zinc-900 px-3 text-sm font-medium text-white disabled:opacity-50">
          Save priors
        </button>
      </form>
      {message && (
        <p role="status" data-testid="priors-message" className="text-zinc-700">
          {message}
        </p>
      )}
    </section>
  );
}
