'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { TreeGate } from '@/lib/dashboard/index.ts';

const FIELD = 'h-8 rounded-md border border-zinc-300 bg-white px-2 text-sm';
// trainer: groups the trainer reports; openai / anthropic: endpoint policies Envolve probes with.
// oracle and nop cannot gate (the server refuses them); simulated only the demo lineage.
const GATING_POLICIES = ['trainer', 'openai', 'anthropic'];
const PROOF_POLICIES = new Set(['oracle', 'nop']);

interface GateBody {
  probePolicy: string;
  releaseRate: number;
  minGroup: number;
  timeoutReward: number;
  confirmWithdrawal?: boolean;
}

interface GateAnswer {
  result?: { frontier: number; steps: { kind: string; generation: number; reason?: string }[] };
  error?: string;
  message?: string;
}

function savedText(result: NonNullable<GateAnswer['result']>): string {
  const last = result.steps.at(-1);
  const next = last?.kind === 'needs-probe' ? `a probe of G${last.generation} is queued` : last?.reason;
  return `gate saved; frontier re-evaluated: G${result.frontier}${next ? ` (${next})` : ''}`;
}

// Leads change the lineage's release gate. A new policy withdraws what other policies released and
// walks the frontier again from that policy's groups: the server names what it would withdraw and
// the lead confirms before anything changes.
export function GateForm({ lineageId, gate, policies }: { lineageId: string; gate: TreeGate; policies: string[] }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [unconfirmed, setUnconfirmed] = useState<GateBody | null>(null);
  const options = [...new Set([...GATING_POLICIES, ...(gate.demoMode ? ['simulated'] : []), gate.policy, ...policies.filter((p) => !PROOF_POLICIES.has(p))])];

  async function send(body: GateBody) {
    setPending(true);
    setMessage(null);
    setUnconfirmed(null);
    const response = await fetch(`/api/lineages/${lineageId}/gate`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as GateAnswer;
    setPending(false);
    if (answer.error === 'confirm_withdrawal') {
      setMessage(answer.message ?? 'this change withdraws releases');
      setUnconfirmed({ ...body, confirmWithdrawal: true });
      return;
    }
    if (!response.ok || !answer.result) {
      setMessage(answer.message ?? `the gate was not changed (HTTP ${response.status})`);
      return;
    }
    setMessage(savedText(answer.result));
    router.replace(`/lineages/${lineageId}`);
    router.refresh();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void send({
      probePolicy: String(form.get('probePolicy')),
      releaseRate: Number(form.get('releaseRate')),
      minGroup: Number(form.get('minGroup')),
      timeoutReward: Number(form.get('timeoutReward')),
    });
  }

  return (
    <section aria-labelledby="gate" className="flex flex-col gap-2 text-sm">
      <h2 id="gate" className="font-semibold">
        Release gate
      </h2>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2" data-testid="gate-form">
        <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
          Gating policy
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
      <p className="text-xs text-zinc-500">
        trainer: the groups your trainer reports through the trainer API, tagged with its checkpoint. oracle and nop cannot gate: they prove a task is solvable
        and its tests meaningful, which validation already did.
      </p>
      {message && (
        <p role="status" data-testid="gate-message" className="text-zinc-700">
          {message}
        </p>
      )}
      {unconfirmed && (
        <div className="flex gap-2">
          <button
            type="button"
            disabled={pending}
            onClick={() => void send(unconfirmed)}
            className="h-8 rounded-md bg-red-700 px-3 text-sm font-medium text-white disabled:opacity-50"
          >
            Withdraw and change the gate
          </button>
          <button
            type="button"
            onClick={() => (setUnconfirmed(null), setMessage(null))}
            className="h-8 rounded-md border border-zinc-300 bg-white px-3 text-sm"
          >
            Cancel
          </button>
        </div>
      )}
    </section>
  );
}
