// Who last changed a generation, for the conflict message: the newest audit event about it.
// Every state change is audited (lib/evolution/generation-writer.ts); a generation never changed reads as null.
import type { Prisma } from '../db/index.ts';
import type { LastChange } from './errors.ts';

export async function lastChangeOf(db: Pick<Prisma.TransactionClient, 'auditEvent'>, generationId: string): Promise<LastChange | null> {
  const event = await db.auditEvent.findFirst({
    where: { subjectType: 'generation', subjectId: generationId, action: { startsWith: 'generation.' } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return event ? { action: event.action, actorEmail: event.actorEmail, at: event.createdAt.toISOString() } : null;
}
