// The read model of the generation review page: one generation with its sequence edit, plan
// rounds, every attempt's validator verdicts, the focused attempt's residual summary, the
// difficulty axes, decisions and comments.
import type { Db } from '../db/index.ts';
import { storedAsUnknown, UNKNOWN_DIFFICULTY_LABEL } from '../difficulty/index.ts';
import { shownApprovers, emailsOf, lastChangeOf, listComments, viewedFiles } from '../review/index.ts';
import { diffSequences, parseSequence } from '../sequence/index.ts';
import type { Sequence } from '../sequence/index.ts';
import { incoherentParent } from '../evolution/index.ts';
import { GenerationState } from '../states/index.ts';
import { parseSolutionCheckReport } from '../validate/index.ts';
import { RUN_ROW_SELECT } from './environments.ts';
import { jsonEntries } from './flatten.ts';
import { countJudgement } from '../rubric/index.ts';
import { shownVerdict } from './run-label.ts';
import { changesSinceLastReview } from './attempt-compare.ts';
import { parseStoredResidual, residualFileDiff, residualSummary } from './generation-residual.ts';
import type { AttemptView, DifficultyAxes, FileDiffView, GenerationReview, PlanItemVerdict, PlanRoundView, SequenceView } from './generation-types.ts';

const RUN_SELECT = {
  ...RUN_ROW_SELECT,
  rubricVersion: true,
  rubricVerdicts: { orderBy: { createdAt: 'asc' }, include: { item: { select: { key: true, version: true, title: true } } } },
} as const;

function parseJson<T>(raw: string | null | undefined, fallback: T): T {
  if (!raw) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

function sequenceOf(metadata: string | undefined): Sequence | null {
  const stored = parseJson<{ sequence?: unknown }>(metadata, {}).sequence;
  if (stored === undefined) return null;
  try {
    return parseSequence(stored);
  } catch {
    return null;
  }
}

function axes(
  version: { difficultyLength: number | null; difficultyScenario: number | null; difficultySkill: number | null; difficultyModel: string | null } | null,
): DifficultyAxes {
  if (version && storedAsUnknown(version)) return { unknown: UNKNOWN_DIFFICULTY_LABEL, length: null, scenario: null, skill: null, total: null, model: null };
  const length = version?.difficultyLength ?? null;
  const scenario = version?.difficultyScenario ?? null;
  const skill = version?.difficultySkill ?? null;
  const total = length !== null && scenario !== null && skill !== null ? length + scenario + skill : null;
  return { unknown: null, length, scenario, skill, total, model: version?.difficultyModel ?? null };
}

type PlanRoundRow = { round: number; approved: boolean; plan: string; review: string; rubricVersion: string; createdAt: Date };
type StoredItemVerdict = Omit<PlanItemVerdict, 'label'>;

function reviewOf(row: PlanRoundRow) {
  return parseJson<{ reasons?: string[]; violations?: string[]; items?: StoredItemVerdict[] }>(row.review, {});
}

// Plan reviews store rubric item row ids; reviewers read items by key and version.
async function itemLabels(db: Db, rows: PlanRoundRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((row) => (reviewOf(row).items ?? []).map((item) => item.itemId)))];
  const items = await db.rubricItem.findMany({ where: { id: { in: ids } }, select: { id: true, key: true, version: true } });
  return new Map(items.map((item) => [item.id, `${item.key}@${item.version}`]));
}

function planRoundView(row: PlanRoundRow, labels: Map<string, string>): PlanRoundView {
  const plan = parseJson<{ edit?: PlanRoundView['edit']; rationale?: string }>(row.plan, {});
  const review = reviewOf(row);
  return {
    round: row.round,
    approved: row.approved,
    edit: plan.edit ?? null,
    rationale: plan.rationale ?? '',
    reasons: review.reasons ?? [],
    violations: review.violations ?? [],
    items: (review.items ?? []).map((item) => ({ ...item, label: labels.get(item.itemId) ?? item.itemId })),
    rubricVersion: row.rubricVersion,
    createdAt: row.createdAt.toISOString(),
  };
}

// The attempt to show: the one asked for, else the one the generation settled on, else the last.
function pickAttempt<T extends { number: number; candidateVersionId: string | null }>(attempts: T[], versionId: string | null, asked?: number): T | null {
  return attempts.find((a) => a.number === asked) ?? attempts.find((a) => versionId !== null && a.candidateVersionId === versionId) ?? attempts.at(-1) ?? null;
}

export async function getGenerationReview(db: Db, id: string, options: { viewerId: string; attempt?: number }): Promise<GenerationReview | null> {
  const generation = await db.generation.findUnique({
    where: { id },
    include: {
      lineage: { select: { id: true, name: true, approvalsRequired: true } },
      planRounds: { orderBy: { round: 'asc' } },
      attempts: {
        orderBy: { number: 'asc' },
        select: {
          id: true,
          number: true,
          state: true,
          feedback: true,
          error: true,
          durationMs: true,
          candidateVersionId: true,
          createdAt: true,
          validatorRuns: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: RUN_SELECT },
        },
      },
      reviews: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
    },
  });
  if (!generation) return null;
  const focused = pickAttempt(generation.attempts, generation.versionId, options.attempt);
  const childVersionId = generation.versionId ?? focused?.candidateVersionId ?? null;
  const versionSelect = { id: true, metadata: true, difficultyLength: true, difficultyScenario: true, difficultySkill: true, difficultyModel: true } as const;
  const [versions, focusedResidual, withResidual, approvers, comments, lastChange, labels, parentNotCurrent] = await Promise.all([
    db.environmentVersion.findMany({ where: { id: { in: [generation.parentVersionId, ...(childVersionId ? [childVersionId] : [])] } }, select: versionSelect }),
    focused ? db.attempt.findUnique({ where: { id: focused.id }, select: { residual: true } }) : null,
    db.attempt.findMany({ where: { generationId: id, residual: { not: null } }, select: { number: true } }),
    shownApprovers(db, generation),
    listComments(db, id),
    lastChangeOf(db, id),
    itemLabels(db, generation.planRounds),
    generation.state === GenerationState.superseded ? null : incoherentParent(db, generation),
  ]);
  const parentVersion = versions.find((v) => v.id === generation.parentVersionId) ?? null;
  const childVersion = versions.find((v) => v.id === childVersionId) ?? null;
  const approvedPlan = [...generation.planRounds].reverse().find((r) => r.approved) ?? generation.planRounds.at(-1);
  const planned = approvedPlan ? parseJson<{ child?: unknown; rationale?: string }>(approvedPlan.plan, {}) : {};
  const parentSequence = sequenceOf(parentVersion?.metadata);
  const childSequence = sequenceOf(childVersion?.metadata) ?? (planned.child ? safeSequence(planned.child) : null);
  const emails = await emailsOf(db, [...generation.reviews.map((r) => r.reviewerId), ...approvers]);
  const changes = parseStoredResidual(focusedResidual?.residual ?? null);
  const residual = await residualSummary(db, generation.parentVersionId, changes);
  const [viewedPaths, changedSinceReview] = await Promise.all([
    viewedFiles(db, options.viewerId, id, new Map(residual.map((f) => [f.path, f.contentSha256]))),
    focused ? changesSinceLastReview(db, options.viewerId, generation, { number: focused.number, files: residual }) : [],
  ]);
  const residualAttempts = new Set(withResidual.map((a) => a.number));

  return {
    generation: {
      id: generation.id,
      number: generation.number,
      state: generation.state,
      revision: generation.revision,
      axis: generation.axis,
      effort: generation.effort,
      error: generation.error,
      versionId: generation.versionId,
      parentVersionId: generation.parentVersionId,
      createdAt: generation.createdAt.toISOString(),
      updatedAt: generation.updatedAt.toISOString(),
      lineage: generation.lineage,
      approvals: { count: approvers.length, required: Math.max(1, generation.lineage.approvalsRequired), reviewers: approvers.map((a) => emails.get(a) ?? a) },
      lastChange,
      parentNotCurrent: parentNotCurrent?.replace(/^superseded: /, '') ?? null,
    },
    sequence: sequenceView(parentSequence, childSequence),
    rationale: planned.rationale ?? '',
    planRounds: generation.planRounds.map((row) => planRoundView(row, labels)),
    attempts: generation.attempts.map((attempt): AttemptView => ({
      id: attempt.id,
      number: attempt.number,
      state: attempt.state,
      feedback: attempt.feedback,
      error: attempt.error,
      durationMs: attempt.durationMs,
      candidateVersionId: attempt.candidateVersionId,
      hasResidual: residualAttempts.has(attempt.number),
      createdAt: attempt.createdAt.toISOString(),
      runs: attempt.validatorRuns.map(({ rubricVerdicts, containment, createdAt, ...run }) => ({
        ...run,
        ...shownVerdict(run.kind, run.verdict, countJudgement(rubricVerdicts)),
        containment: jsonEntries(containment),
        solutionCheck: parseSolutionCheckReport(run.rewardDetail),
        createdAt: createdAt.toISOString(),
        rubricVerdicts: rubricVerdicts.map((v) => ({
          id: v.id,
          itemKey: v.item.key,
          itemVersion: v.item.version,
          itemTitle: v.item.title,
          method: v.method,
          verdict: v.verdict,
          detail: v.detail,
        })),
      })),
    })),
    focusedAttempt: focused?.number ?? null,
    residual,
    difficulty: { parent: axes(parentVersion), child: axes(childVersion) },
    reviews: generation.reviews.map((r) => ({
      id: r.id,
      decision: r.decision,
      comment: r.comment,
      reviewerEmail: emails.get(r.reviewerId) ?? r.reviewerId,
      revision: r.revision,
      createdAt: r.createdAt.toISOString(),
    })),
    comments,
    viewedPaths,
    changedSinceReview,
  };
}

function safeSequence(value: unknown): Sequence | null {
  try {
    return parseSequence(value);
  } catch {
    return null;
  }
}

function sequenceView(parent: Sequence | null, child: Sequence | null): SequenceView {
  const diff = parent && child ? diffSequences(parent, child) : null;
  return { parent: parent?.steps ?? null, child: child?.steps ?? null, inserted: diff?.inserted ?? [], replaced: diff?.replaced ?? [] };
}

/** One residual file's diff for the review page, or null when the generation, attempt or path is unknown. */
export async function getResidualFileDiff(db: Db, generationId: string, attemptNumber: number, path: string): Promise<FileDiffView | null> {
  const attempt = await db.attempt.findUnique({
    where: { generationId_number: { generationId, number: attemptNumber } },
    select: { residual: true, generation: { select: { parentVersionId: true } } },
  });
  const change = parseStoredResidual(attempt?.residual ?? null).find((c) => c.path === path);
  if (!attempt || !change) return null;
  return residualFileDiff(db, attempt.generation.parentVersionId, change);
}
