import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import type { Route } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { can } from '@/lib/auth/index.ts';
import { draftFromIssue, getMissedIssue, MissedIssueState } from '@/lib/missed-issues/index.ts';
import { ConvertForm } from '../_components/convert-form.tsx';
import { Badge } from '../labels.tsx';

export const metadata: Metadata = { title: 'Missed issue' };

function Block({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <dt className="text-xs font-medium uppercase tracking-wide text-zinc-500">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

export default async function MissedIssuePage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePermission('dashboard.read');
  const { id } = await params;
  const issue = await getMissedIssue(await requestDb(), id);
  if (!issue) notFound();
  const mayConvert = can(user.role, 'rubric.manage') && issue.state === MissedIssueState.open;

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section className="flex flex-col gap-4" aria-labelledby="issue-title">
        <div>
          <p className="text-sm text-zinc-500">
            <Link href="/missed-issues" className="underline">
              Missed issues
            </Link>
          </p>
          <h1 id="issue-title" className="text-lg font-semibold tracking-tight">
            {issue.title}
          </h1>
          <div className="mt-1 flex flex-wrap gap-2">
            <Badge value={issue.state} />
            <Badge value={issue.severity} kind="severity" />
          </div>
        </div>
        <dl className="flex flex-col gap-3 rounded-lg border border-zinc-200 bg-white p-4">
          <Block label="Generation">
            <Link href={`/generations/${issue.generation.id}` as Route} className="underline">
              {issue.generation.lineageName} · generation {issue.generation.number}
            </Link>
          </Block>
          <Block label="Should have been caught by">{issue.validatorKind}</Block>
          <Block label="Description">
            <p className="whitespace-pre-wrap">{issue.description}</p>
          </Block>
          <Block label="Proposed check">
            {issue.check ? <pre className="overflow-x-auto rounded bg-zinc-50 p-2 font-mono text-xs">{issue.check}</pre> : '–'}
          </Block>
          <Block label="Proposed question">{issue.question ?? '–'}</Block>
          <Block label="Filed">
            {issue.createdAt.toISOString().slice(0, 16).replace('T', ' ')} by {issue.reporterEmail ?? 'unknown'}
          </Block>
          {issue.rubricItem && (
            <Block label="Rubric item">
              <Link href={`/rubric/${issue.rubricItem.id}` as Route} className="font-mono underline">
                {issue.rubricItem.key}@{issue.rubricItem.version}
              </Link>{' '}
              <Badge value={issue.rubricItem.active ? 'active' : 'inactive'} />
            </Block>
          )}
        </dl>
      </section>
      {mayConvert && (
        <section className="flex flex-col gap-3 rounded-lg border border-zinc-200 bg-white p-4" aria-labelledby="convert-heading">
          <h2 id="convert-heading" className="text-base font-semibold">
            Turn into a rubric item
          </h2>
          <ConvertForm issueId={issue.id} lineageName={issue.generation.lineageName} draft={draftFromIssue(issue)} />
        </section>
      )}
    </div>
  );
}
