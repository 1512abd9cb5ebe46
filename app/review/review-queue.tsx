'use client';

import Link from 'next/link';
import type { Route } from 'next';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { DataTable, type Column } from '@/app/_components/data-table.tsx';
import { HttpError } from '@/app/_components/http.ts';
import { ShortcutHelp, ShortcutHelpButton, useShortcuts, type Shortcut } from '@/app/_components/shortcuts.tsx';
import { useJsonMutation } from '@/app/_components/use-json-mutation.ts';
import type { Decision } from '@/lib/review/index.ts';
import { QUEUE_DEFAULT_SORT, type QueueItem, type QueuePage } from '@/lib/review/browser.ts';
import { formatTimestamp } from '@/lib/dashboard/browser.ts';
import type { SearchParamsLike } from '@/lib/dashboard/index.ts';

const PROMPTS: Record<Exclude<Decision, 'approve'>, string> = {
  reject: 'Reason for rejecting this generation:',
  'request-changes': 'What should change? (sent to the modifier as feedback)',
};

// Approving from the queue skips the page that shows what is approved: say what follows.
const approveConsequence = (item: QueueItem) =>
  `Approve ${item.lineageName} generation ${item.number} without opening it?\n\nIt will be probed, and once the lineage's gate passes it is released and served to trainers. You can undo for 30 seconds from its page.`;

const COLUMNS: Column<QueueItem>[] = [
  { header: 'Lineage', sort: { key: 'lineage' }, cell: (item) => <span className="font-medium">{item.lineageName}</span> },
  {
    header: 'Generation',
    sort: { key: 'generation' },
    cell: (item) => (
      <span className="flex flex-wrap items-center gap-2 tabular-nums">
        {item.number}
        {item.revisedAfter && (
          <span
            data-testid="revised"
            title={`Changes requested by ${item.revisedAfter.reviewerEmail} on ${formatTimestamp(item.revisedAfter.at)}`}
            className="rounded-full bg-violet-50 px-2 py-0.5 text-xs text-violet-900 ring-1 ring-violet-600/20"
          >
            revised · asked: {item.revisedAfter.comment.slice(0, 80)}
            {item.revisedAfter.comment.length > 80 ? '…' : ''}
          </span>
        )}
      </span>
    ),
  },
  {
    header: 'Edit',
    cell: (item) => (
      <span className="text-zinc-700">
        {item.axis} · {item.effort}
      </span>
    ),
  },
  { header: 'Approvals', cell: (item) => `${item.approvals} / ${item.approvalsRequired}`, className: 'tabular-nums' },
  {
    header: 'Waiting since',
    sort: { key: 'waiting' },
    cell: (item) => <time dateTime={item.waitingSince}>{formatTimestamp(item.waitingSince)}</time>,
    className: 'text-xs tabular-nums text-zinc-600',
  },
  {
    header: <span className="sr-only">Actions</span>,
    className: 'text-right',
    cell: (item) => (
      <Link
        href={`/generations/${item.generationId}` as Route}
        className="rounded text-blue-700 hover:underline"
        aria-label={`Open ${item.lineageName} generation ${item.number}`}
      >
        Open
      </Link>
    ),
  },
];

// The queue with keyboard shortcuts. Decisions go through the same guarded POST route as the
// review page, with the revision the queue rendered.
export function ReviewQueue({ queue, params }: { queue: QueuePage; params: SearchParamsLike }) {
  const router = useRouter();
  const [selected, setSelected] = useState(0);
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  const items = queue.items;
  const item = items[selected];

  const decide = useJsonMutation<{ state: string; reviewId: string }, { item: QueueItem; decision: Decision; comment: string }>(
    ({ item, decision, comment }) => ({
      url: `/api/generations/${item.generationId}/decision`,
      body: { decision, comment, revision: item.revision },
    }),
  );

  function decideSelected(decision: Decision) {
    if (!item) return;
    let comment = '';
    if (decision === 'approve') {
      if (!window.confirm(approveConsequence(item))) return;
    } else {
      const answer = window.prompt(PROMPTS[decision]);
      if (answer === null || answer.trim() === '') return;
      comment = answer;
    }
    decide.mutate({ item, decision, comment });
  }

  const open = () => item && router.push(`/generations/${item.generationId}` as Route);
  const shortcuts: Shortcut[] = [
    { keys: ['j'], label: 'Select the next generation', run: () => setSelected((i) => Math.min(i + 1, items.length - 1)) },
    { keys: ['k'], label: 'Select the previous generation', run: () => setSelected((i) => Math.max(i - 1, 0)) },
    { keys: ['Enter', 'o'], label: 'Open the selected generation', run: open },
    { keys: ['a'], label: 'Approve the selected generation (asks to confirm: it is unopened)', run: () => decideSelected('approve') },
    { keys: ['r'], label: 'Reject it (asks for the reason)', run: () => decideSelected('reject') },
    { keys: ['c'], label: 'Request changes (asks for the comment)', run: () => decideSelected('request-changes') },
  ];
  const help = useShortcuts(shortcuts);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the list shrank under the selection (a decision removed it): move it back once
    if (selected >= items.length && items.length > 0) setSelected(items.length - 1);
    rows.current[selected]?.scrollIntoView({ block: 'nearest' });
  }, [selected, items.length]);

  const done = decide.isSuccess && decide.variables;
  const conflict = decide.error instanceof HttpError && decide.error.status === 409;
  return (
    <div className="flex flex-col gap-3">
      {done && (
        <p role="status" data-testid="queue-message" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {done.item.lineageName} generation {done.item.number}: {decide.data?.state}.{' '}
          <Link href={`/generations/${done.item.generationId}?decided=${decide.data?.reviewId}` as Route} className="font-medium underline">
            Open it to undo (30 s)
          </Link>
        </p>
      )}
      {decide.error && (
        <p role="alert" data-testid="queue-message" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {conflict ? 'Conflict: ' : ''}
          {decide.error.message}
        </p>
      )}
      <DataTable
        label="Generations awaiting review"
        columns={COLUMNS}
        rows={items}
        rowKey={(row) => row.generationId}
        empty="Nothing is waiting for review."
        rowProps={(_row, index) => ({
          ref: (el: HTMLTableRowElement | null) => {
            rows.current[index] = el;
          },
          'aria-selected': index === selected,
          'data-testid': 'queue-row',
          onClick: () => setSelected(index),
          className: index === selected ? 'bg-blue-50 outline-2 -outline-offset-2 outline-blue-600' : 'hover:bg-zinc-50',
        })}
        url={{ path: '/review', params }}
        defaultSort={QUEUE_DEFAULT_SORT}
        serverPage={queue}
        noun="generations"
      />
      <div>
        <ShortcutHelpButton onClick={() => help.setHelpOpen((o) => !o)} />
      </div>
      <ShortcutHelp shortcuts={shortcuts} open={help.helpOpen} onClose={() => help.setHelpOpen(false)} />
    </div>
  );
}
