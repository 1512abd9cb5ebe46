import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { requestDb } from '@/app/_server/db.ts';
import { resolveShortIdOrNotFound } from '@/app/_server/short-id.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { shortHash, getGenerationReview, summaryText, verdictSummary } from '@/lib/dashboard/index.ts';
import { nextForReviewer, undoableDecision, undoneDecision, generationIdSchema } from '@/lib/review/index.ts';
import { GenerationState, inGroup, REVIEWABLE_STATES } from '@/lib/states/index.ts';
import { BUDGET_FACTORS } from '@/lib/evolution/index.ts';
import { can } from '@/lib/auth/index.ts';
import { schedulerConfigFrom, lineageGateOf, probeGroupsOf } from '@/lib/scheduler/index.ts';
import { AttentionExits } from './attention-exits.tsx';
import { AttemptDiff } from './attempt-diff.tsx';
import { Attempts } from './attempts.tsx';
import { CompromisedBanner } from './compromised-banner.tsx';
import { DecisionBox } from './decision-box.tsx';
import { DifficultyAxes } from './difficulty-axes.tsx';
import { ReviewHistory } from './history.tsx';
import { Panel } from './panel.tsx';
import { PlanRounds } from './plan-rounds.tsx';
import { Probes } from './probes.tsx';
import { ResidualFiles } from './residual-files.tsx';
import { SequenceEdit } from './sequence-edit.tsx';
import { StateBadge } from './state-badge.tsx';
import { parseFiledOnLine } from './diff-line-return.ts';
import { settings } from '@/lib/config/index.ts';

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ attempt?: string; decided?: string; undone?: string; file?: string; line?: string; filed?: string }>;
};

// cache(): metadata and page share one load per request.
const loadReview = cache(async (rawId: string, rawAttempt: string | undefined) => {
  const user = await requirePermission('dashboard.read');
  const id = generationIdSchema.safeParse(rawId);
  if (!id.success) notFound();
  const attempt = Number(rawAttempt);
  const review = await getGenerationReview(await requestDb(), id.data, { viewerId: user.id, attempt: Number.isInteger(attempt) ? attempt : undefined });
  if (!review) return resolveShortIdOrNotFound('generation', rawId);
  return review;
});

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const review = await loadReview((await params).id, (await searchParams).attempt);
  return { title: `Generation ${review.generation.number} · ${review.generation.lineage.name}` };
}

export default async function GenerationReviewPage({ params, searchParams }: Props) {
  const query = await searchParams;
  const review = await loadReview((await params).id, query.attempt);
  const g = review.generation;
  const focused = review.attempts.find((a) => a.number === review.focusedAttempt) ?? null;
  // Only attempts whose modifier wrote a candidate can be compared.
  const comparable = review.attempts.filter((a) => a.hasResidual).map((a) => a.number);
  const db = await requestDb();
  const viewer = await requirePermission('dashboard.read');
  const [probes, rule, next, decision, undone] = await Promise.all([
    g.versionId ? probeGroupsOf(db, g.versionId) : [],
    lineageGateOf(db, g.lineage.id, schedulerConfigFrom(settings().scheduler)),
    nextForReviewer(db, viewer.id, g.id),
    query.decided ? undoableDecision(db, query.decided, viewer.id) : null,
    query.undone ? undoneDecision(db, g.id, viewer.id) : null,
  ]);
  // The banner of a decision shows on the generation decided, the one place every decision lands.
  const decided = decision?.generationId === g.id ? decision : null;
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-1">
        <nav aria-label="Breadcrumb" className="text-xs text-zinc-500">
          <Link href="/review" className="hover:text-zinc-800 hover:underline">
            Review queue
          </Link>
          <span aria-hidden> / </span>
          <span>{g.lineage.name}</span>
        </nav>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-lg font-semibold tracking-tight">
            {g.lineage.name} · generation {g.number}
          </h1>
          <StateBadge state={g.state} />
        </div>
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600">
          <span>
            revision{' '}
            <span className="font-mono tabular-nums" data-testid="revision">
              {g.revision}
            </span>
          </span>
          <span data-testid="approvals">
            approvals {g.approvals.count} / {g.approvals.required}
            {g.approvals.reviewers.length > 0 && ` (${g.approvals.reviewers.join(', ')})`}
          </span>
          <span>
            axis {g.axis} · effort {g.effort}
          </span>
          <span>
            parent{' '}
            <Link className="font-mono text-blue-700 hover:underline" href={`/environments/${g.parentVersionId}`}>
              {shortHash(g.parentVersionId)}
            </Link>
          </span>
          {g.versionId && (
            <span>
              candidate{' '}
              <Link className="font-mono text-blue-700 hover:underline" href={`/environments/${g.versionId}`}>
                {shortHash(g.versionId)}
              </Link>
            </span>
          )}
          {g.lastChange && (
            <span>
              last change: {g.lastChange.action} by {g.lastChange.actorEmail}
            </span>
          )}
        </p>
        {focused && (
          <p data-testid="verdict-summary" className="text-sm font-medium text-zinc-800">
            <a href="#verdicts" className="hover:underline">
              {summaryText(verdictSummary(focused.runs))}
            </a>
            <span className="font-normal text-zinc-500"> — attempt {focused.number}</span>
          </p>
        )}
        <CompromisedBanner versionId={g.versionId} />
        {g.parentNotCurrent && (
          <p role="alert" data-testid="parent-not-current" className="mt-1 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-300">
            Built on a parent version that is not current: {g.parentNotCurrent}. It cannot be reviewed.
          </p>
        )}
        {g.error && (
          <p role="note" className="mt-1 whitespace-pre-wrap rounded-md bg-red-50 px-3 py-2 font-mono text-xs text-red-800">
            {g.error}
          </p>
        )}
      </div>

      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-5">
          <Panel
            id="sequence"
            title="Scenario–skill sequence edit"
            aside={
              <span className="text-xs text-zinc-600">
                {g.axis} · {g.effort}
              </span>
            }
          >
            <SequenceEdit sequence={review.sequence} />
            {review.rationale && (
              <p className="mt-3 border-t border-zinc-100 pt-2 text-sm">
                <span className="font-medium text-zinc-600">Proposer&apos;s rationale: </span>
                {review.rationale}
              </p>
            )}
          </Panel>
          <Panel
            id="residual"
            title={`Residual${review.focusedAttempt !== null ? ` of attempt ${review.focusedAttempt}` : ''} (${review.residual.length} files)`}
          >
            {review.focusedAttempt === null ? (
              <p className="text-sm text-zinc-500">No attempt yet.</p>
            ) : (
              <ResidualFiles
                generationId={g.id}
                attempt={review.focusedAttempt}
                files={review.residual}
                viewedPaths={review.viewedPaths}
                changedSinceReview={review.changedSinceReview}
                comments={review.comments}
                filed={parseFiledOnLine(query)}
              />
            )}
          </Panel>
          {comparable.length >= 2 && (
            <Panel id="attempt-diff" title="Changes between attempts">
              <AttemptDiff generationId={g.id} attempts={comparable} />
            </Panel>
          )}
          <Panel id="verdicts" title={`Validator verdicts (${review.attempts.length} attempts)`}>
            {/* The run details are plumbing: folded behind the verdict line, below the review itself. */}
            <details data-testid="verdict-details">
              <summary className="cursor-pointer text-sm text-zinc-800">{focused ? summaryText(verdictSummary(focused.runs)) : 'No attempt yet'}</summary>
              <div className="mt-2">
                <Attempts generationId={g.id} attempts={review.attempts} focused={review.focusedAttempt} />
              </div>
            </details>
          </Panel>
          <Panel id="plan-rounds" title={`Plan review (${review.planRounds.length} rounds)`}>
            <PlanRounds rounds={review.planRounds} />
          </Panel>
        </div>
        <div className="flex flex-col gap-5 lg:sticky lg:top-4 lg:self-start">
          {g.state === GenerationState.needsAttention && can(viewer.role, 'generation.decide') && (
            <Panel id="attention" title="Needs attention: choose an exit">
              <AttentionExits generationId={g.id} revision={g.revision} budgetFactors={BUDGET_FACTORS} canAccept={can(viewer.role, 'generation.accept-held')} />
            </Panel>
          )}
          <Panel
            id="decision"
            title="Decision"
            aside={
              <span className="text-xs tabular-nums text-zinc-600">
                {g.approvals.count} of {g.approvals.required} approvals
              </span>
            }
          >
            <DecisionBox
              generationId={g.id}
              label={`${g.lineage.name} generation ${g.number}`}
              state={g.state}
              revision={g.revision}
              decidable={inGroup(g.state, REVIEWABLE_STATES)}
              next={next}
              decided={decided && { ...decided, label: `${decided.lineageName} generation ${decided.number}` }}
              undone={undone}
            />
          </Panel>
          <Panel id="probes" title="Probes">
            {rule && <Probes groups={probes} rule={rule} />}
          </Panel>
          <Panel id="difficulty" title="Difficulty axes">
            <DifficultyAxes parent={review.difficulty.parent} child={review.difficulty.child} />
          </Panel>
          <Panel id="history" title="Decisions and comments">
            <ReviewHistory reviews={review.reviews} comments={review.comments} />
          </Panel>
        </div>
      </div>
    </div>
  );
}
