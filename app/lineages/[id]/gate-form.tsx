'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { TreeGate } from '@/lib/dashboard/lineages-types.ts';

const FIELD = 'h-8 rounded-md border border-zinc-300 bg-white px-2 text-sm';
const KNOWN_POLICIES = ['oracle', 'simulated', 'anthropic', 'openai', 'nop'];

// Leads change the lineage's release gate. A new probe policy withdraws what other policies
// released and walks the frontier again from that policy's groups.
export function GateForm({ lineageId, gate, policies }: { lineageId: string; gate: TreeGate; policies: string[] }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const options = [...new Set([...KNOWN_POLICIES, ...policies])];

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      probePolicy: String(form.get('probePolicy')),
      releaseRate: Number(form.get('releaseRate')),
      minGroup: Number(form.get('minGroup')),
      timeoutReward: Number(form.get('timeoutReward')),
    };
    setPending(true);
    setMessage(null);
    const response = await fetch(`/api/lineages/${lineageId}/gate`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as { result?: { frontier: number }; message?: string };
    setPending(false);
    if (!response.ok) {
      setMessage(answer.message ?? `the gate was not changed (HTTP ${response.status})`);
      return;
    }
    setMessage(`gate saved; frontier re-evaluated: G${answer.result?.frontier}`);
    router.replace(`/lineages/${lineageId}`);
    router.refresh();
  }

  return (
    <section aria-labelledby="gate" className="flex flex-col gap-2 text-sm">
      <h2 id="gate" className="font-semibold">
        Release gate
      </h2>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2" data-testid="gate-form">
        <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
          Probe policy
          <select name="probePolicy" defaultValue={gate.policy} className={FIELD}>
            {options.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
          Release rate
          <input name="releaseRate" type="number" min={0.01} max={1} step={0.005} defaultValue={gate.releaseRate} className={`${FIELD} w-24`} />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
          Minimum group
          <input name="minGroup" type="number" min={1} max={256} defaultValue={gate.minGroup} className={`${FIELD} w-20`} />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
          Timeout reward
          <input name="timeoutReward" type="number" step="any" defaultValue={gate.timeoutReward} className={`${FIELD} w-24`} />
        </label>
        <button type="submit" disabled={pending} className="h-8 rounded-md bg-zinc-900 px-3 text-sm font-medium text-white disabled:opacity-50">
          Save gate
        </button>
      </form>
      {message && (
        <p role="status" data-testid="gate-message" className="text-zinc-700">
          {message}
        </p>
      )}
    </section>
  );
}
