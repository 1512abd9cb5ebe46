// The one place this module writes audit events, so every mutation records them the same way.
import { recordAudit } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import type { Actor } from '../auth/index.ts';

// A transaction client too: a decision and its audit entry commit together.
export function audit(
  db: Pick<Db, 'auditEvent'>,
  actor: Actor,
  action: string,
  subject: { type: string; id: string },
  before: unknown,
  after: unknown,
): Promise<unknown> {
  return recordAudit(db, {
    actor: { id: actor.id, email: actor.email },
    action,
    subjectType: subject.type,
    subjectId: subject.id,
    before,
    after,
  });
}
