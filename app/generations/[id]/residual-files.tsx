'use client';

import { useState } from 'react';
import type { ChangedSinceReview, ResidualFileSummary } from '@/lib/dashboard/index.ts';
import type { ReviewCommentView } from '@/lib/review/index.ts';
import { formatBytes, shortHash } from '@/lib/dashboard/browser.ts';
import { FileDiff } from './file-diff.tsx';
import { sendJson } from '../../_components/http.ts';
import type { FiledOnLine } from './diff-line-return.ts';

const OP_STYLES: Record<ResidualFileSummary['op'], string> = {
  add: 'bg-emerald-50 text-emerald-800',
  modify: 'bg-blue-50 text-blue-800',
  delete: 'bg-red-50 text-red-800',
};

function sizeChange(file: ResidualFileSummary) {
  const size = (n: number | null) => (n === null ? '—' : formatBytes(n));
  return `${size(file.oldSize)} → ${size(file.newSize)}`;
}

// The residual as a list of collapsed files, data files folded behind their count. A file's diff
// is fetched and rendered only when it is expanded, so a 200-file residual costs 200 summary rows
// until the reviewer opens one. Marking a file viewed collapses it. A file the reviewer saw with
// other content (before a revision) is flagged as changed since, and opens on what changed.
export function ResidualFiles(props: {
  generationId: string;
  attempt: number;
  files: ResidualFileSummary[];
  viewedPaths: string[];
  changedSinceReview: ChangedSinceReview[];
  comments: ReviewCommentView[];
  filed?: FiledOnLine | null;
}) {
  const [viewed, setViewed] = useState(() => new Set(props.viewedPaths));
  const [error, setError] = useState<string | null>(null);
  const [wrap, setWrap] = useState(true);

  async function toggleViewed({ path, contentSha256 }: ResidualFileSummary, isViewed: boolean) {
    setViewed((current) => {
      const next = new Set(current);
      if (isViewed) next.add(path);
      else next.delete(path);
      return next;
    });
    try {
      await sendJson(`/api/generations/${props.generationId}/viewed`, 'PUT', { path, contentSha256, viewed: isViewed });
      setError(null);
    } catch (err) {
      setError(`Could not save the viewed mark on ${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  const changed = new Map(props.changedSinceReview.map((c) => [c.path, c]));
  const fileRow = (file: ResidualFileSummary) => (
    <ResidualFile
      key={file.path}
      file={file}
      generationId={props.generationId}
      attempt={props.attempt}
      viewed={viewed.has(file.path)}
      changed={changed.get(file.path)}
      wrap={wrap}
      onViewed={(isViewed) => toggleViewed(file, isViewed)}
      comments={props.comments.filter((c) => c.path === file.path)}
      filed={props.filed?.path === file.path ? props.filed : undefined}
    />
  );
  // Instruction, tests and solution are the review; the data files are folded and counted.
  const reviewed = props.files.filter((f) => !f.data || props.filed?.path === f.path);
  const data = props.files.filter((f) => f.data && props.filed?.path !== f.path);

  if (props.files.length === 0) return <p className="text-sm text-zinc-500">This attempt recorded no residual.</p>;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-3">
        <p className="text-xs text-zinc-600" aria-live="polite" data-testid="viewed-counter">
          <span className="font-semibold tabular-nums">
            {props.files.filter((f) => viewed.has(f.path)).length} of {props.files.length}
          </span>{' '}
          files viewed
        </p>
        <label className="flex items-center gap-1 text-xs text-zinc-700">
          <input type="checkbox" checked={wrap} onChange={(event) => setWrap(event.target.checked)} className="size-3.5 accent-zinc-800" />
          Wrap long lines
        </label>
      </div>
      {error && (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      )}
      {props.changedSinceReview.length > 0 && (
        <p data-testid="changed-since-review" className="rounded-md bg-amber-50 px-3 py-1.5 text-xs text-amber-950 ring-1 ring-amber-200">
          <span className="font-semibold">
            {props.changedSinceReview.length} {props.changedSinceReview.length === 1 ? 'file' : 'files'} changed since your last review:
          </span>{' '}
          <span className="font-mono">{props.changedSinceReview.map((c) => c.path).join(', ')}</span>
        </p>
      )}
      <ul className="flex flex-col gap-1.5">{reviewed.map(fileRow)}</ul>
      {data.length > 0 && (
        <details data-testid="data-files" className="rounded-md border border-zinc-200">
          <summary className="cursor-pointer px-3 py-1.5 text-xs text-zinc-700">
            {data.length} data files <span className="text-zinc-500">({data.filter((f) => viewed.has(f.path)).length} viewed)</span>
          </summary>
          <ul className="flex flex-col gap-1.5 px-2 pb-2">{data.map(fileRow)}</ul>
        </details>
      )}
    </div>
  );
}

function ResidualFile(props: {
  file: ResidualFileSummary;
  generationId: string;
  attempt: number;
  viewed: boolean;
  changed?: ChangedSinceReview;
  wrap: boolean;
  onViewed: (viewed: boolean) => void;
  comments: ReviewCommentView[];
  filed?: FiledOnLine;
}) {
  const { file } = props;
  const [open, setOpen] = useState(props.filed !== undefined);
  const checkboxId = `viewed-${file.path}`;
  return (
    <li
      className={`rounded-md border ${props.viewed ? 'border-zinc-200 bg-zinc-50' : 'border-zinc-300 bg-white'}`}
      data-testid="residual-file"
      data-path={file.path}
      data-kind={file.data ? 'data' : 'review'}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1.5">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`diff-${file.path}`}
          onClick={() => setOpen(!open)}
          className="flex min-w-0 flex-1 items-center gap-2 rounded text-left text-sm focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <span aria-hidden className={`inline-block transition-transform ${open ? 'rotate-90' : ''}`}>
            ▸
          </span>
          <span className={`rounded px-1.5 py-0.5 text-[11px] font-semibold ${OP_STYLES[file.op]}`}>{file.op}</span>
          <span className="truncate font-mono text-xs">{file.path}</span>
          {props.comments.length > 0 && <span className="rounded-full bg-blue-100 px-1.5 text-[11px] text-blue-900">{props.comments.length} comments</span>}
          {props.changed && !props.viewed && (
            <span data-testid="changed-since" className="rounded-full bg-amber-100 px-1.5 text-[11px] font-medium text-amber-900">
              {props.changed.since === 'viewed' ? 'changed since you viewed it' : 'changed since your decision'}
            </span>
          )}
        </button>
        <span className="text-xs tabular-nums text-zinc-500">{sizeChange(file)}</span>
        {(file.binary || file.large) && <span className="rounded bg-zinc-200 px-1.5 text-[11px] text-zinc-700">{file.binary ? 'binary' : 'large'}</span>}
        {file.executableChanged && <span className="rounded bg-zinc-200 px-1.5 text-[11px] text-zinc-700">mode changed</span>}
        <label htmlFor={checkboxId} className="flex items-center gap-1 text-xs text-zinc-700">
          <input
            id={checkboxId}
            type="checkbox"
            checked={props.viewed}
            onChange={(event) => {
              if (event.target.checked) setOpen(false);
              props.onViewed(event.target.checked);
            }}
            className="size-3.5 accent-zinc-800"
          />
          Viewed
        </label>
      </div>
      {open && (
        <div id={`diff-${file.path}`} className="border-t border-zinc-200">
          {props.changed && props.changed.seenAttempt !== null && props.changed.seenAttempt !== props.attempt && (
            <section
              aria-label={`Changes to ${file.path} since you ${props.changed.since === 'viewed' ? 'viewed it' : 'decided'}`}
              className="border-b border-amber-200"
            >
              <h4 className="bg-amber-50 px-3 py-1 text-xs font-medium text-amber-950">
                Since you {props.changed.since === 'viewed' ? 'viewed it' : 'decided'}: attempt {props.changed.seenAttempt} → attempt {props.attempt}
              </h4>
              <FileDiff
                generationId={props.generationId}
                source={{ kind: 'attempts', from: props.changed.seenAttempt, to: props.attempt }}
                path={file.path}
                wrap={props.wrap}
              />
            </section>
          )}
          {file.binary || file.large ? (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 px-3 py-2 text-xs">
              <dt className="text-zinc-500">parent</dt>
              <dd className="font-mono">{file.oldSize === null ? 'absent' : `${formatBytes(file.oldSize)} · sha256 ${shortHash(file.oldSha256 ?? '', 16)}`}</dd>
              <dt className="text-zinc-500">candidate</dt>
              <dd className="font-mono">
                {file.newSize === null ? 'deleted' : `${formatBytes(file.newSize)} · sha256 ${shortHash(file.newSha256 ?? '', 16)}`}
              </dd>
            </dl>
          ) : (
            <FileDiff
              generationId={props.generationId}
              source={{ kind: 'residual', attempt: props.attempt }}
              path={file.path}
              comments={props.comments}
              wrap={props.wrap}
              filed={props.filed}
            />
          )}
        </div>
      )}
    </li>
  );
}
