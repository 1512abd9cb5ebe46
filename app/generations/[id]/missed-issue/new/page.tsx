import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import type { Route } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { FileMissedIssue } from '@/app/missed-issues/_components/file-missed-issue.tsx';
import { draftFromPrefill, parsePrefill } from '@/lib/missed-issues/index.ts';
import { parseAttempt } from '../../diff-line-return.ts';

export const metadata: Metadata = { title: 'File a missed issue' };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// Links from the diff lines, rubric rows, trajectory turns and the decision panel carry where the
// problem was seen (?file=&line=&excerpt=&rubricItem=&trajectory=&turn=); the form opens with it. A form opened
// from a diff line (file, line, attempt) returns to that line once filed.
export default async function NewMissedIssuePage({ params, searchParams }: Props) {
  await requirePermission('missed-issue.file');
  const { id } = await params;
  const query = await searchParams;
  const prefill = parsePrefill(query);
  const draft = draftFromPrefill(prefill);
  const from = prefill.file && prefill.line ? { path: prefill.file, line: prefill.line, attempt: parseAttempt(single(query.attempt)) } : undefined;
  const generation = await (
    await requestDb()
  ).generation.findUnique({
    where: { id },
    select: { id: true, number: true, state: true, versionId: true, axis: true, lineage: { select: { name: true } } },
  });
  if (!generation) notFound();
  return (
    <div className="flex flex-col gap-4">
      <div>
        <p className="text-sm text-zinc-500">
          <Link href={`/generations/${generation.id}` as Route} className="underline">
            {generation.lineage.name} · generation {generation.number}
          </Link>{' '}
          ({generation.state}, {generation.axis}
          {generation.versionId ? `, version ${generation.versionId.slice(0, 12)}` : ''})
        </p>
        <h1 className="text-lg font-semibold tracking-tight">File a missed issue</h1>
        <p className="text-sm text-zinc-500">
          A problem with this generation that the validators let through. A lead may turn it into a rubric item that judges every later generation.
        </p>
      </div>
      <FileMissedIssue generationId={generation.id} draft={draft} from={from} autoFocus />
    </div>
  );
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
