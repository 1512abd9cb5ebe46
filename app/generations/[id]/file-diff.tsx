'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import type { FileDiffView } from '@/lib/dashboard/index.ts';
import type { ReviewCommentView } from '@/lib/review/index.ts';
import { gapToReveal, toHunks, EXPAND_STEP, type DiffLine, type DiffSegment } from '@/lib/review/browser.ts';
import { fetchJson, sendJson } from '../../_components/http.ts';

const LINE_STYLES: Record<DiffLine['kind'], string> = {
  context: 'bg-white',
  add: 'bg-emerald-50',
  delete: 'bg-red-50',
};
const MARKS: Record<DiffLine['kind'], string> = { context: ' ', add: '+', delete: '-' };
const WORD_STYLES: Record<DiffLine['kind'], string> = { context: '', add: 'rounded-sm bg-emerald-200', delete: 'rounded-sm bg-red-200' };

// The missed-issue form, pre-filled with the file, the candidate's line number and its text;
// the attempt lets it return to this very diff once filed.
function missedIssueHref(generationId: string, attempt: number, path: string, line: number, excerpt: string) {
  const query = new URLSearchParams({ file: path, line: String(line), excerpt, attempt: String(attempt) });
  return `/generations/${generationId}/missed-issue/new?${query.toString()}` as const;
}

function LineText({ line }: { line: DiffLine }) {
  if (!line.segments) return <>{line.text}</>;
  return (
    <>
      {line.segments.map((segment: DiffSegment, i) =>
        segment.changed ? (
          <span key={i} className={WORD_STYLES[line.kind]} data-testid="changed-words">
            {segment.text}
          </span>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}

/** Where a diff comes from: one attempt's residual over the parent, or one attempt's candidate to another's. */
export type DiffSource = { kind: 'residual'; attempt: number } | { kind: 'attempts'; from: number; to: number };

function diffUrl(generationId: string, source: DiffSource, path: string): string {
  const file = encodeURIComponent(path);
  return source.kind === 'residual'
    ? `/api/generations/${generationId}/diff?attempt=${source.attempt}&path=${file}`
    : `/api/generations/${generationId}/attempt-diff/file?from=${source.from}&to=${source.to}&path=${file}`;
}

function tableName(source: DiffSource, path: string): string {
  return source.kind === 'residual' ? `Diff of ${path}` : `Attempt ${source.from} to attempt ${source.to}: ${path}`;
}

function sideNames(source: DiffSource): [string, string] {
  return source.kind === 'residual' ? ['parent', 'candidate'] : [`attempt ${source.from}`, `attempt ${source.to}`];
}

// One file's line diff, loaded when the file is expanded. On a residual, clicking a candidate
// line opens a comment form pinned to that line, pinned comments show under their lines, and
// each candidate line links to the missed-issue form pre-filled with it. Long lines wrap unless
// `wrap` is off. `filed` is a missed issue just filed on one of its lines: that line is
// scrolled into view and marked. Unchanged lines are folded around the hunks; each fold unfolds
// on request, a step at a time.
export function FileDiff({
  generationId,
  source,
  path,
  comments = [],
  wrap,
  filed,
}: {
  generationId: string;
  source: DiffSource;
  path: string;
  comments?: ReviewCommentView[];
  wrap: boolean;
  filed?: { line: number; issueId: string };
}) {
  const url = diffUrl(generationId, source, path);
  const diff = useQuery({ queryKey: ['residual-diff', generationId, source, path], queryFn: () => fetchJson<FileDiffView>(url), staleTime: Infinity });

  if (diff.isPending) return <p className="px-3 py-2 text-xs text-zinc-500">Loading diff…</p>;
  if (diff.isError)
    return (
      <p role="alert" className="px-3 py-2 text-xs text-red-700">
        Could not load the diff: {diff.error.message}
      </p>
    );
  const view = diff.data;
  if (view.kind === 'summary') {
    const [before, after] = sideNames(source);
    return (
      <p className="px-3 py-2 text-xs text-zinc-600">
        {view.reason === 'binary' ? 'Binary file' : 'Large file'}: {before} {view.old ? `${view.old.size} B, sha256 ${view.old.sha256}` : 'absent'}; {after}{' '}
        {view.new ? `${view.new.size} B, sha256 ${view.new.sha256}` : 'deleted'}.
      </p>
    );
  }
  return (
    <DiffTable
      generationId={generationId}
      attempt={source.kind === 'residual' ? source.attempt : null}
      name={tableName(source, path)}
      path={path}
      lines={view.lines}
      comments={comments}
      wrap={wrap}
      filed={filed}
    />
  );
}

// `attempt` is the residual's attempt, which line comments and missed issues are filed on; null
// for a diff between attempts, whose lines are read, not annotated.
function DiffTable({
  generationId,
  attempt,
  name,
  path,
  lines,
  comments,
  wrap,
  filed,
}: {
  generationId: string;
  attempt: number | null;
  name: string;
  path: string;
  lines: DiffLine[];
  comments: ReviewCommentView[];
  wrap: boolean;
  filed?: { line: number; issueId: string };
}) {
  const [commentLine, setCommentLine] = useState<number | null>(null);
  const [revealed, setRevealed] = useState<ReadonlySet<number>>(() => new Set());
  const { hunks, skippedAfter } = useMemo(() => toHunks(lines, 3, revealed), [lines, revealed]);
  const filedRow = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    filedRow.current?.scrollIntoView({ block: 'center' });
  }, []);
  const reveal = (indexes: number[]) => setRevealed((current) => new Set([...current, ...indexes]));

  const byLine = new Map<number, ReviewCommentView[]>();
  for (const c of comments) if (c.line !== null) byLine.set(c.line, [...(byLine.get(c.line) ?? []), c]);

  return (
    <div className={wrap ? '' : 'overflow-x-auto'}>
      <table className={`w-full border-collapse font-mono text-xs leading-5 ${wrap ? 'table-fixed' : ''}`} aria-label={name} data-wrap={wrap}>
        <colgroup>
          <col className="w-12" />
          <col className="w-12" />
          <col />
          <col className="w-8" />
        </colgroup>
        <tbody>
          {hunks.map((hunk, h) => (
            <Fragment key={hunk.start}>
              {hunk.skippedBefore > 0 && (
                <Skipped path={path} count={hunk.skippedBefore} onExpand={() => reveal(gapToReveal(hunk.start, hunk.skippedBefore, h === 0))} />
              )}
              {hunk.lines.map((line, i) => (
                <Fragment key={`${h}-${i}`}>
                  <tr
                    ref={filed && line.newNumber === filed.line ? filedRow : undefined}
                    className={`group ${LINE_STYLES[line.kind]} ${filed && line.newNumber === filed.line ? 'outline-2 outline-amber-400' : ''}`}
                    data-kind={line.kind}
                  >
                    <td className="w-12 select-none border-r border-zinc-200 pr-2 text-right text-zinc-400">{line.oldNumber ?? ''}</td>
                    <td className="w-12 select-none border-r border-zinc-200 pr-2 text-right text-zinc-400">
                      {line.newNumber !== null && attempt !== null ? (
                        <button
                          type="button"
                          aria-label={`Comment on line ${line.newNumber} of ${path}`}
                          onClick={() => setCommentLine(line.newNumber)}
                          className="w-full text-right hover:text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600"
                        >
                          {line.newNumber}
                        </button>
                      ) : (
                        (line.newNumber ?? '')
                      )}
                    </td>
                    <td className={`${wrap ? 'whitespace-pre-wrap break-all' : 'whitespace-pre'} px-2`}>
                      <span aria-hidden className="select-none text-zinc-400">
                        {MARKS[line.kind]}
                      </span>
                      <LineText line={line} />
                    </td>
                    <td className="pr-1 text-right align-top">
                      {line.newNumber !== null && attempt !== null && (
                        <Link
                          href={missedIssueHref(generationId, attempt, path, line.newNumber, line.text)}
                          aria-label={`File missed issue on line ${line.newNumber} of ${path}`}
                          title="File missed issue on this line"
                          className="select-none rounded px-1 font-sans text-zinc-400 opacity-0 hover:bg-amber-100 hover:text-amber-900 focus-visible:opacity-100 group-hover:opacity-100"
                        >
                          ⚑
                        </Link>
                      )}
                    </td>
                  </tr>
                  {filed && line.newNumber === filed.line && (
                    <tr>
                      <td colSpan={4} role="status" className="bg-amber-50 px-3 py-1.5 font-sans text-xs text-amber-950" data-testid="filed-on-line">
                        ⚑ Missed issue filed on line {filed.line}.{' '}
                        <Link href={`/missed-issues/${filed.issueId}`} className="font-medium underline">
                          Open it
                        </Link>
                      </td>
                    </tr>
                  )}
                  {line.newNumber !== null &&
                    (byLine.get(line.newNumber) ?? []).map((c) => (
                      <tr key={c.id}>
                        <td colSpan={4} className="bg-blue-50 px-3 py-1.5 font-sans text-xs" data-testid="pinned-comment">
                          <span className="font-semibold">{c.authorEmail}</span> on line {c.line}: {c.body}
                        </td>
                      </tr>
                    ))}
                  {commentLine !== null && line.newNumber === commentLine && (
                    <tr>
                      <td colSpan={4} className="bg-zinc-50 px-3 py-2 font-sans">
                        <LineCommentForm generationId={generationId} path={path} line={commentLine} onDone={() => setCommentLine(null)} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </Fragment>
          ))}
          {skippedAfter > 0 && <Skipped path={path} count={skippedAfter} onExpand={() => reveal(gapToReveal(lines.length, skippedAfter, false))} />}
        </tbody>
      </table>
    </div>
  );
}

// A fold of unchanged lines, and the button that unfolds the next few of them.
function Skipped({ path, count, onExpand }: { path: string; count: number; onExpand: () => void }) {
  const step = Math.min(EXPAND_STEP, count);
  return (
    <tr data-testid="skipped-lines">
      <td colSpan={4} className="bg-zinc-100 px-3 py-0.5 text-zinc-500">
        ⋯ {count} unchanged lines{' '}
        <button
          type="button"
          onClick={onExpand}
          aria-label={`Show ${step} more lines of ${path}`}
          className="ml-2 rounded px-1.5 font-sans text-blue-700 hover:bg-blue-50 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          show {step} more lines
        </button>
      </td>
    </tr>
  );
}

function LineCommentForm({ generationId, path, line, onDone }: { generationId: string; path: string; line: number; onDone: () => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  async function submit() {
    try {
      await sendJson(`/api/generations/${generationId}/comments`, 'POST', { body, path, line });
      await queryClient.invalidateQueries({ queryKey: ['residual-diff', generationId] });
      router.refresh();
      onDone();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      className="flex flex-col gap-1.5"
    >
      <label htmlFor={`comment-${path}-${line}`} className="text-xs font-medium">
        Comment on {path}:{line}
      </label>
      <textarea
        id={`comment-${path}-${line}`}
        autoFocus
        rows={2}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        className="rounded border border-zinc-300 px-2 py-1 text-sm"
      />
      <div className="flex gap-2">
        <button type="submit" disabled={body.trim() === ''} className="rounded bg-zinc-900 px-2.5 py-1 text-xs font-medium text-white disabled:opacity-50">
          Add comment
        </button>
        <button type="button" onClick={onDone} className="rounded px-2.5 py-1 text-xs text-zinc-700 hover:bg-zinc-200">
          Cancel
        </button>
      </div>
      {error && (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}
