// Review comments: on the generation as a whole, or pinned to a line of a residual file.
import { recordAudit } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { GenerationNotFoundError } from '../evolution/index.ts';
import type { PersonActor } from '../auth/index.ts';
import { RefusedError } from '../errors/index.ts';

export interface CommentInput {
  generationId: string;
  user: PersonActor;
  body: string;
  path?: string;
  line?: number; // 1-based line of the candidate's file; only with path
}

export interface ReviewCommentView {
  id: string;
  authorEmail: string;
  path: string | null;
  line: number | null;
  body: string;
  createdAt: string;
}

export async function addComment(db: Db, input: CommentInput): Promise<ReviewCommentView> {
  const body = input.body.trim();
  if (body === '') throw new RefusedError('a comment needs a body');
  if (input.line !== undefined && input.path === undefined) throw new RefusedError('a line comment needs the file path');
  return db.$transaction(async (tx) => {
    const exists = await tx.generation.findUnique({ where: { id: input.generationId }, select: { id: true } });
    if (!exists) throw new GenerationNotFoundError(input.generationId);
    const row = await tx.reviewComment.create({
      data: { generationId: input.generationId, authorId: input.user.id, body, path: input.path ?? null, line: input.line ?? null },
    });
    await recordAudit(tx, {
      actor: input.user,
      action: 'generation.comment',
      subjectType: 'generation',
      subjectId: input.generationId,
      after: { commentId: row.id, path: row.path, line: row.line, body },
    });
    return { id: row.id, authorEmail: input.user.email, path: row.path, line: row.line, body, createdAt: row.createdAt.toISOString() };
  });
}

// Oldest first, the order a conversation reads in. Authors are looked up in one query: the
// comment table keeps only the author's id.
export async function listComments(db: Db, generationId: string): Promise<ReviewCommentView[]> {
  const rows = await db.reviewComment.findMany({ where: { generationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const emails = await emailsOf(
    db,
    rows.map((r) => r.authorId),
  );
  return rows.map((row) => ({
    id: row.id,
    authorEmail: emails.get(row.authorId) ?? row.authorId,
    path: row.path,
    line: row.line,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
  }));
}

export async function emailsOf(db: Pick<Db, 'user'>, userIds: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return new Map();
  const users = await db.user.findMany({ where: { id: { in: unique } }, select: { id: true, email: true } });
  return new Map(users.map((u) => [u.id, u.email]));
}
