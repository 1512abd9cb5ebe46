'use client';
// Names a new token and shows it exactly once, with a button that copies it: the server keeps
// only its hash, so this is the one moment it can be read.
import { useActionState, useState } from 'react';
import { inputClass, primaryButtonClass, smallButtonClass } from '@/app/_components/ui.ts';
import { createTokenAction, type CreateTokenState } from './actions.ts';

// `nameMax` is lib's limit, passed from the server page: lib's module is not for the browser.
export function CreateTokenForm({ nameMax }: { nameMax: number }) {
  const [state, action, pending] = useActionState<CreateTokenState, FormData>(createTokenAction, { error: null, created: null });
  return (
    <section aria-labelledby="new-token" className="flex flex-col gap-3 rounded-lg border border-zinc-200 bg-white px-4 py-3">
      <h2 id="new-token" className="text-sm font-semibold">
        New token
      </h2>
      <form action={action} className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-xs text-zinc-600">
          Token name
          <input name="name" required maxLength={nameMax} placeholder="e.g. gpu-box-1 trainer" className={`${inputClass} w-72`} />
        </label>
        <label className="flex flex-col gap-1 text-xs text-zinc-600">
          Policies it reports for
          <input name="policies" placeholder="trainer" aria-describedby="policies-help" className={`${inputClass} w-56`} />
        </label>
        <p id="policies-help" className="basis-full text-xs text-zinc-500">
          Comma-separated; blank is <code className="font-mono">trainer</code>. Its groups are accepted only under these names (the{' '}
          <code className="font-mono">policy</code> field of a report), never under a policy Envolve runs itself (oracle, nop, simulated, openai, anthropic).
        </p>
        <button type="submit" disabled={pending} className={primaryButtonClass}>
          {pending ? 'Creating…' : 'Create token'}
        </button>
      </form>
      {state.error && (
        <p role="alert" className="text-sm text-red-700">
          {state.error}
        </p>
      )}
      {state.created && <NewToken name={state.created.name} token={state.created.token} policies={state.created.policies} />}
    </section>
  );
}

function NewToken({ name, token, policies }: { name: string; token: string; policies: string[] }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(token);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }
  return (
    <div role="status" className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <p>
        Token “{name}” made, reporting for <span data-testid="new-token-policies">{policies.join(', ')}</span>. Copy it now: it is shown only this once, and
        Envolve keeps only a hash of it.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid="new-token" className="select-all break-all rounded bg-white px-2 py-1 font-mono text-xs ring-1 ring-amber-200">
          {token}
        </code>
        <button type="button" onClick={() => void copy()} className={smallButtonClass}>
          Copy
        </button>
        {copied && <span className="text-xs">{copied === 'yes' ? 'Copied.' : 'Could not copy: select the token and copy it by hand.'}</span>}
      </div>
    </div>
  );
}
