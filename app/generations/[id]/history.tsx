import { formatTimestamp } from '@/lib/dashboard/index.ts';
import type { ReviewView } from '@/lib/dashboard/index.ts';
import type { ReviewCommentView } from '@/lib/review/index.ts';

const DECISION_STYLES: Record<string, string> = {
  approve: 'text-emerald-800',
  reject: 'text-red-800',
  'request-changes': 'text-amber-800',
};

// Decisions and comments in the order they happened.
export function ReviewHistory({ reviews, comments }: { reviews: ReviewView[]; comments: ReviewCommentView[] }) {
  const entries = [
    ...reviews.map((r) => ({
      at: r.createdAt,
      key: r.id,
      node: (
        <>
          <span className="font-medium">{r.reviewerEmail}</span> <span className={`font-semibold ${DECISION_STYLES[r.decision] ?? ''}`}>{r.decision}</span>{' '}
          <span className="text-zinc-500">on revision {r.revision}</span>
          {r.comment && <>: {r.comment}</>}
        </>
      ),
    })),
    ...comments.map((c) => ({
      at: c.createdAt,
      key: c.id,
      node: (
        <>
          <span className="font-medium">{c.authorEmail}</span> commented
          {c.path && (
            <>
              {' '}
              on{' '}
              <code className="font-mono text-xs">
                {c.path}
                {c.line !== null ? `:${c.line}` : ''}
              </code>
            </>
          )}
          : {c.body}
        </>
      ),
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  if (entries.length === 0) return <p className="text-sm text-zinc-500">No decisions or comments yet.</p>;
  return (
    <ol className="flex flex-col gap-1.5 text-sm" data-testid="review-history">
      {entries.map((e) => (
        <li key={e.key} className="break-words">
          <time dateTime={e.at} className="mr-2 text-xs tabular-nums text-zinc-500">
            {formatTimestamp(e.at)}
          </time>
          {e.node}
        </li>
      ))}
    </ol>
  );
}
