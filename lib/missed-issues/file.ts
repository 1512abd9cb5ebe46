// A reviewer files a problem the validators missed on one generation.
import type { Db, MissedIssue } from '../db/index.ts';
import { assertCan, type Actor } from '../auth/index.ts';
import { auditDecision } from '../audit/index.ts';
import { fileMissedIssueSchema, type FileMissedIssueInput } from './schema.ts';
import { GenerationNotFoundError } from '../evolution/index.ts';
import { ConflictError } from '../errors/index.ts';

// A second press of "File", or the same report from another tab: the reviewer's open issue with
// the same title and description on this generation already says it, so a copy is refused and
// named, rather than left for a lead to find and dismiss.
export class DuplicateMissedIssueError extends ConflictError {
  constructor(readonly existing: Pick<MissedIssue, 'id' | 'title'>) {
    super(`you already filed “${existing.title}” on this generation (missed issue ${existing.id}, still open)`, {
      code: 'duplicate_missed_issue',
      details: { missedIssueId: existing.id },
    });
  }
}

export async function fileMissedIssue(db: Db, actor: Actor, generationId: string, input: FileMissedIssueInput): Promise<MissedIssue> {
  assertCan(actor, 'missed-issue.file');
  const reporterId = actor.id;
  if (!reporterId) throw new Error('a missed issue is filed by a signed-in user');
  const fields = fileMissedIssueSchema.parse(input);
  const generation = await db.generation.findUnique({ where: { id: generationId }, select: { id: true } });
  if (!generation) throw new GenerationNotFoundError(generationId);
  return db.$transaction(async (tx) => {
    const existing = await tx.missedIssue.findFirst({
      where: { generationId, reporterId, title: fields.title, description: fields.description, state: 'open' },
      select: { id: true, title: true },
      orderBy: { createdAt: 'asc' },
    });
    if (existing) throw new DuplicateMissedIssueError(existing);
    const issue = await tx.missedIssue.create({
      data: {
        generationId,
        reporterId,
        title: fields.title,
        description: fields.description,
        severity: fields.severity,
        validatorKind: fields.validatorKind,
        check: fields.check ?? null,
        question: fields.question ?? null,
      },
    });
    await auditDecision(tx, actor, 'missed-issue.file', { type: 'missed-issue', id: issue.id }, null, issue);
    return issue;
  });
}
