// "Viewed" marks: a reviewer's own progress through a residual, one mark per file, kept on the
// content the reviewer saw: a revision that changes the file shows it unviewed again.
import { recordSessionAudit } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { GenerationNotFoundError } from '../evolution/index.ts';
import type { PersonActor } from '../auth/index.ts';

export async function setFileViewed(
  db: Db,
  input: { user: PersonActor; generationId: string; path: string; contentSha256: string; viewed: boolean; now?: Date },
): Promise<void> {
  const key = { userId: input.user.id, generationId: input.generationId, path: input.path };
  const mark = { ...key, contentSha256: input.contentSha256 };
  await db.$transaction(async (tx) => {
    // A mark (and its audit entry) only for a generation that exists.
    const exists = await tx.generation.findUnique({ where: { id: input.generationId }, select: { id: true } });
    if (!exists) throw new GenerationNotFoundError(input.generationId);
    if (input.viewed) await tx.fileViewMark.upsert({ where: { userId_generationId_path: key }, create: mark, update: { contentSha256: input.contentSha256 } });
    else await tx.fileViewMark.deleteMany({ where: key });
    // One entry per review session, not per checkbox: the files in the order first touched,
    // each with its mark as the session left it.
    await recordSessionAudit(tx, {
      actor: input.user,
      action: FILES_VIEWED_ACTION,
      subjectType: 'generation',
      subjectId: input.generationId,
      idleMs: REVIEW_SESSION_IDLE_MS,
      now: input.now,
      extend: (previous) => ({ files: withMark(sessionFiles(previous), input.path, input.viewed) }),
    });
  });
}

export const FILES_VIEWED_ACTION = 'generation.files-viewed';
/** A review session ends after this long without a viewed mark changing. */
export const REVIEW_SESSION_IDLE_MS = 30 * 60 * 1000;

export interface SessionFile {
  path: string;
  viewed: boolean;
}

function sessionFiles(after: Record<string, unknown> | undefined): SessionFile[] {
  const files = after?.files;
  return Array.isArray(files) ? files.filter((f): f is SessionFile => typeof f?.path === 'string' && typeof f?.viewed === 'boolean') : [];
}

function withMark(files: SessionFile[], path: string, viewed: boolean): SessionFile[] {
  return files.some((f) => f.path === path) ? files.map((f) => (f.path === path ? { path, viewed } : f)) : [...files, { path, viewed }];
}

/**
 * The paths a user has viewed as they are now: a mark counts only while the file's current content
 * hash (`current`, by path) is the one the mark was given on.
 */
export async function viewedFiles(db: Db, userId: string, generationId: string, current: ReadonlyMap<string, string>): Promise<string[]> {
  const marks = await db.fileViewMark.findMany({ where: { userId, generationId }, select: { path: true, contentSha256: true }, orderBy: { path: 'asc' } });
  return marks.filter((m) => m.contentSha256 !== '' && current.get(m.path) === m.contentSha256).map((m) => m.path);
}
