// A lead decides an open missed issue: dismiss it, or turn it into a rubric item. The item is
// created inactive (a draft the lead can backtest first) unless the lead activates it at once.
import type { Db, MissedIssue, Prisma, RubricItem } from '../db/index.ts';
import { saveRubricItemIn, setItemActiveIn } from '../rubric/index.ts';
import { assertCan, type Actor } from '../auth/index.ts';
import { ConflictError, NotFoundError } from '../errors/index.ts';
import { auditDecision } from '../audit/index.ts';
import { keyTaken, slugify, uniqueRubricKey } from './rubric-key.ts';
import { convertMissedIssueSchema, MissedIssueState, type ConvertMissedIssueInput } from './schema.ts';

export class MissedIssueNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`missed issue ${id} not found`);
  }
}

async function openIssue(db: Prisma.TransactionClient, id: string): Promise<MissedIssue> {
  const issue = await db.missedIssue.findUnique({ where: { id } });
  if (!issue) throw new MissedIssueNotFoundError(id);
  if (issue.state !== MissedIssueState.open) throw new ConflictError(`missed issue ${id} is already ${issue.state}`);
  return issue;
}

// The one writer of a missed issue's state: out of open only if it still is (two leads deciding
// at once, one wins).
async function claim(db: Prisma.TransactionClient, id: string, state: Exclude<MissedIssueState, typeof MissedIssueState.open>): Promise<void> {
  const { count } = await db.missedIssue.updateMany({ where: { id, state: MissedIssueState.open }, data: { state } });
  if (count === 0) throw new ConflictError(`missed issue ${id} was decided by someone else in the meantime`);
}

export async function dismissMissedIssue(db: Db, actor: Actor, id: string): Promise<MissedIssue> {
  assertCan(actor, 'rubric.manage');
  return db.$transaction(async (tx) => {
    const before = await openIssue(tx, id);
    await claim(tx, id, MissedIssueState.dismissed);
    const after = await tx.missedIssue.findUniqueOrThrow({ where: { id } });
    await auditDecision(tx, actor, 'missed-issue.dismiss', { type: 'missed-issue', id }, before, after);
    return after;
  });
}

// The conversion form's starting values: the reviewer's words, the item judging what the
// issue's validator judges (a plan-review miss becomes a plan item).
export interface ConversionDraft {
  key: string; // the slug the title gives; the stored key gets a suffix if it is taken
  title: string;
  description: string;
  check: string;
  question: string;
  scope: 'global' | 'lineage';
  appliesTo: 'environment' | 'plan' | 'both';
}

export function draftFromIssue(issue: MissedIssue): ConversionDraft {
  return {
    key: slugify(issue.title),
    title: issue.title,
    description: issue.description,
    check: issue.check ?? '',
    question: issue.question ?? '',
    scope: 'global',
    appliesTo: issue.validatorKind === 'plan-review' ? 'plan' : 'environment',
  };
}

export interface ConversionResult {
  issue: MissedIssue;
  item: RubricItem;
}

// The issue, its new rubric item (activated if asked) and their audit rows commit together, or
// nothing does: a failure leaves the issue open and no item behind.
export async function convertMissedIssue(db: Db, actor: Actor, id: string, input: ConvertMissedIssueInput): Promise<ConversionResult> {
  assertCan(actor, 'rubric.manage');
  const fields = convertMissedIssueSchema.parse(input);
  return db.$transaction(async (tx) => {
    const before = await openIssue(tx, id);
    if (fields.key && (await keyTaken(tx, fields.key))) throw new ConflictError(`rubric key ${fields.key} is already taken`);
    const generation = await tx.generation.findUniqueOrThrow({ where: { id: before.generationId }, select: { lineageId: true } });
    await claim(tx, id, MissedIssueState.converted);
    const saved = await saveRubricItemIn(tx, {
      key: fields.key ?? (await uniqueRubricKey(tx, fields.title)),
      title: fields.title,
      description: fields.description,
      check: fields.check ?? null,
      question: fields.question ?? null,
      appliesTo: fields.appliesTo,
      scope: fields.scope,
      lineageId: fields.scope === 'lineage' ? generation.lineageId : null,
      source: 'missed-issue',
      active: false,
    });
    const issue = await tx.missedIssue.update({ where: { id }, data: { rubricItemId: saved.item.id } });
    await auditDecision(tx, actor, 'rubric.create', { type: 'rubric-item', id: saved.item.id }, null, saved.item);
    await auditDecision(tx, actor, 'missed-issue.convert', { type: 'missed-issue', id }, before, issue);
    const item = fields.activate ? await setItemActiveIn(tx, actor, saved.item.id, true) : saved.item;
    return { issue, item };
  });
}
