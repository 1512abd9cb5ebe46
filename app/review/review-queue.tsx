'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Decision } from '@/lib/review/types.ts';
import type { QueuePage } from '@/lib/review/queue.ts';
import { formatTimestamp } from '@/lib/dashboard/format.ts';
import { HttpError, sendJson } from '../generations/[id]/post-json.ts';
import { shortcutFor, SHORTCUTS } from './shortcuts.ts';

const PROMPTS: Record<Exclude<Decision, 'approve'>, string> = {
  reject: 'Reason for rejecting this generation:',
  'request-changes': 'What should change? (sent to the modifier as feedback)',
};

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

// The queue with keyboard shortcuts. Decisions go through the same guarded POST route as the
// review page, with the revision the queue rendered.
export function ReviewQueue({ queue }: { queue: QueuePage }) {
  const router = useRouter();
  const [selected, setSelected] = useState(0);
  const [help, setHelp] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  const items = queue.items;

  const decideSelected = useCallback(
    async (decision: Decision) => {
      const item = items[selected];
      if (!item) return;
      let comment = '';
      if (decision !== 'approve') {
        const answer = window.prompt(PROMPTS[decision]);
        if (answer === null || answer.trim() === '') return;
        comment = answer;
      }
      try {
        const outcome = await sendJson<{ state: string }>(`/api/generations/${item.generationId}/decision`, 'POST', { decision, comment, revision: item.revision });
        setMessage({ error: false, text: `${item.lineageName} generation ${item.number}: ${outcome.state}.` });
        router.refresh();
      } catch (error) {
        const prefix = error instanceof HttpError && error.status === 409 ? 'Conflict: ' : '';
        setMessage({ error: true, text: `${prefix}${error instanceof Error ? error.message : String(error)}` });
      }
    },
    [items, selected, router],
  );

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      const action = shortcutFor(event.key);
      if (!action) return;
      event.preventDefault();
      const item = items[selected];
      if (action === 'help') setHelp((open) => !open);
      else if (action === 'next') setSelected((i) => Math.min(i + 1, items.length - 1));
      else if (action === 'previous') setSelected((i) => Math.max(i - 1, 0));
      else if (action === 'open' && item) router.push(`/generations/${item.generationId}`);
      else if (action !== 'open') void decideSelected(action);
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [items, selected, router, decideSelected]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the list shrank under the selection (a decision removed it): move it back once
    if (selected >= items.length && items.length > 0) setSelected(items.length - 1);
    rows.current[selected]?.scrollIntoView({ block: 'nearest' });
  }, [selected, items.length]);

  return (
    <div className="flex flex-col gap-3">
      {message && (
        <p role={message.error ? 'alert' : 'status'} data-testid="queue-message" className={`rounded-md px-3 py-2 text-sm ${message.error ? 'bg-red-50 text-red-800' : 'bg-emerald-50 text-emerald-900'}`}>
          {message.text}
        </p>
      )}
      {items.length === 0 ? (
        <p className="rounded-lg border border-zinc-200 bg-white px-4 py-6 text-center text-sm text-zinc-500">Nothing is waiting for review.</p>
      ) : (
        <div className="overflow-hidden rounded-lg border border-zinc-200 bg-white">
          <table className="w-full text-left text-sm" aria-label="Generations awaiting review">
            <thead className="bg-zinc-50 text-xs text-zinc-500">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">Lineage</th>
                <th scope="col" className="px-3 py-2 font-medium">Generation</th>
                <th scope="col" className="px-3 py-2 font-medium">Edit</th>
                <th scope="col" className="px-3 py-2 font-medium">Approvals</th>
                <th scope="col" className="px-3 py-2 font-medium">Waiting since</th>
                <th scope="col" className="px-4 py-2 font-medium"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {items.map((item, index) => {
                const isSelected = index === selected;
                return (
                  <tr
                    key={item.generationId}
                    ref={(el) => { rows.current[index] = el; }}
                    aria-selected={isSelected}
                    data-testid="queue-row"
                    onClick={() => setSelected(index)}
                    className={`border-t border-zinc-100 ${isSelected ? 'bg-blue-50 outline-2 -outline-offset-2 outline-blue-600' : 'hover:bg-zinc-50'}`}
                  >
                    <td className="px-4 py-2 font-medium">{item.lineageName}</td>
                    <td className="px-3 py-2 tabular-nums">{item.number}</td>
                    <td className="px-3 py-2 text-zinc-700">{item.axis} · {item.effort}</td>
                    <td className="px-3 py-2 tabular-nums">{item.approvals} / {item.approvalsRequired}</td>
                    <td className="px-3 py-2 text-xs tabular-nums text-zinc-600"><time dateTime={item.waitingSince}>{formatTimestamp(item.waitingSince)}</time></td>
                    <td className="px-4 py-2 text-right">
                      <Link href={`/generations/${item.generationId}`} className="rounded text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600" aria-label={`Open ${item.lineageName} generation ${item.number}`}>
                        Open
                      </Link>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={queue.page} pageSize={queue.pageSize} total={queue.total} />
      <div className="flex items-center gap-2">
        <button type="button" onClick={() => setHelp(!help)} aria-expanded={help} aria-controls="shortcut-help" className="rounded-md px-2 py-1 text-xs text-zinc-700 ring-1 ring-zinc-300 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-blue-600">
          Keyboard shortcuts
        </button>
      </div>
      {help && (
        <section id="shortcut-help" role="dialog" aria-label="Keyboard shortcuts" className="rounded-lg border border-zinc-200 bg-white px-4 py-3">
          <h2 className="mb-2 text-sm font-semibold">Keyboard shortcuts</h2>
          <dl className="grid grid-cols-[6rem_1fr] gap-y-1 text-sm">
            {SHORTCUTS.map((s) => (
              <div key={s.action} className="contents">
                <dt>{s.keys.map((k) => <kbd key={k} className="mr-1 rounded border border-zinc-300 bg-zinc-50 px-1.5 font-mono text-xs">{k}</kbd>)}</dt>
                <dd className="text-zinc-700">{s.label}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
    </div>
  );
}

function Pagination({ page, pageSize, total }: { page: number; pageSize: number; total: number }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages === 1) return null;
  return (
    <nav aria-label="Queue pages" className="flex items-center gap-3 text-sm">
      {page > 1 && <Link href={`/review?page=${page - 1}`} className="text-blue-700 hover:underline">Previous</Link>}
      <span className="text-zinc-600">Page {page} of {pages}</span>
      {page < pages && <Link href={`/review?page=${page + 1}`} className="text-blue-700 hover:underline">Next</Link>}
    </nav>
  );
}
