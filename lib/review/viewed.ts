// "Viewed" marks: a reviewer's own progress through a residual, one mark per file.
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/client.ts';
import { GenerationNotFoundError } from '../evolution/errors.ts';
import type { PersonActor } from '../auth/actor.ts';

export async function setFileViewed(db: Db, input: { user: PersonActor; generationId: string; path: string; viewed: boolean }): Promise<void> {
  const key = { userId: input.user.id, generationId: input.generationId, path: input.path };
  await db.$transaction(async (tx) => {
    // A mark (and its audit entry) only for a generation that exists.
    const exists = await tx.generation.findUnique({ where: { id: input.generationId }, select: { id: true } });
    if (!exists) throw new GenerationNotFoundError(input.generationId);
    if (input.viewed) await tx.fileViewMark.upsert({ where: { userId_generationId_path: key }, create: key, update: {} });
    else await tx.fileViewMark.deleteMany({ where: key });
    await recordAudit(tx, {
      actor: input.user,
      action: input.viewed ? 'generation.file-viewed' : 'generation.file-unviewed',
      subjectType: 'generation',
      subjectId: input.generationId,
      after: { path: input.path },
    });
  });
}

export async function viewedFiles(db: Db, userId: string, generationId: string): Promise<string[]> {
  const marks = await db.fileViewMark.findMany({ where: { userId, generationId }, select: { path: true }, orderBy: { path: 'asc' } });
  return marks.map((m) => m.path);
}
