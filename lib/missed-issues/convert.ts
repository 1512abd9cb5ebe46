// A lead decides an open missed issue: dismiss it, or turn it into a rubric item. The item is
// created inactive (a draft the lead can backtest first) unless the lead activates it at once.
import type { Db } from '../db/client.ts';
import type { MissedIssue, RubricItem } from '../db/generated/client.ts';
import { saveRubricItem } from '../rubric/index.ts';
import { assertCan, ConflictError, type Actor } from './actor.ts';
import { audit } from './audit.ts';
import { keyTaken, slugify, uniqueRubricKey } from './rubric-key.ts';
import { setItemActive } from '../rubric/catalogue.ts';
import { convertMissedIssueSchema, type ConvertMissedIssueInput } from './schema.ts';

export class MissedIssueNotFoundError extends Error {
  constructor(id: string) {
    super(`missed issue ${id} not found`);
    this.name = 'MissedIssueNotFoundError';
  }
}

async function openIssue(db: Db, id: string): Promise<MissedIssue> {
  const issue = await db.missedIssue.findUnique({ where: { id } });
  if (!issue) throw new MissedIssueNotFoundError(id);
  if (issue.state !== 'open') throw new ConflictError(`missed issue ${id} is already ${issue.state}`);
  return issue;
}

// Moves an issue out of 'open' only if it still is: two leads deciding at once, one wins.
async function claim(db: Db, id: string, state: 'converted' | 'dismissed'): Promise<void> {
  const { count } = await db.missedIssue.updateMany({ where: { id, state: 'open' }, data: { state } });
  if (count === 0) throw new ConflictError(`missed issue ${id} was decided by someone else in the meantime`);
}

export async function dismissMissedIssue(db: Db, actor: Actor, id: string): Promise<MissedIssue> {
  assertCan(actor, 'rubric.manage');
  const before = await openIssue(db, id);
  await claim(db, id, 'dismissed');
  const after = await db.missedIssue.findUniqueOrThrow({ where: { id } });
  await audit(db, actor, 'missed-issue.dismiss', { type: 'missed-issue', id }, before, after);
  return after;
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

export async function convertMissedIssue(db: Db, actor: Actor, id: string, input: ConvertMissedIssueInput): Promise<ConversionResult> {
  assertCan(actor, 'rubric.manage');
  const fields = convertMissedIssueSchema.parse(input);
  const before = await openIssue(db, id);
  if (fields.key && (await keyTaken(db, fields.key))) throw new ConflictError(`rubric key ${fields.key} is already taken`);
  const generation = await db.generation.findUniqueOrThrow({ where: { id: before.generationId }, select: { lineageId: true } });
  await claim(db, id, 'converted');
  let item: RubricItem;
  try {
    const saved = await saveRubricItem(db, {
      key: fields.key ?? (await uniqueRubricKey(db, fields.title)),
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
    item = saved.item;
  } catch (err) {
    await db.missedIssue.update({ where: { id }, data: { state: 'open' } });
    throw err;
  }
  const issue = await db.missedIssue.update({ where: { id }, data: { rubricItemId: item.id } });
  await audit(db, actor, 'rubric.create', { type: 'rubric-item', id: item.id }, null, item);
  await audit(db, actor, 'missed-issue.convert', { type: 'missed-issue', id }, before, issue);
  if (fields.activate) item = await setItemActive(db, actor, item.id, true);
  return { issue, item };
}
