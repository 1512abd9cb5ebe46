// The audit log: every decision, with who made it, when, and the subject before and after.
import type { Actor } from '../auth/index.ts';
import type { Db } from '../db/index.ts';

// What the log records of an actor (lib/auth/actor.ts): who, not their role.
export type AuditActor = Pick<Actor, 'id' | 'email'>;

export interface AuditInput {
  actor: AuditActor;
  action: string;
  subjectType: string;
  subjectId: string;
  before?: unknown;
  after?: unknown;
  /** When the act happened; the database's now unless given. */
  createdAt?: Date;
}

export interface AuditEntry {
  id: string;
  actorId: string | null;
  actorEmail: string;
  action: string;
  subjectType: string;
  subjectId: string;
  before: unknown;
  after: unknown;
  createdAt: Date;
}

export interface AuditQuery {
  action?: string;
  subjectType?: string;
  subjectId?: string;
  limit?: number;
  /** The id of the last entry of the previous page. */
  cursor?: string;
}

export const AUDIT_PAGE_LIMIT = 100;

/** Accepts a transaction client too, so a decision and its audit entry commit together. */
type AuditDb = Pick<Db, 'auditEvent'>;

export async function recordAudit(db: AuditDb, input: AuditInput): Promise<AuditEntry> {
  const row = await db.auditEvent.create({
    data: {
      actorId: input.actor.id,
      actorEmail: input.actor.email,
      action: input.action,
      subjectType: input.subjectType,
      subjectId: input.subjectId,
      before: input.before === undefined ? null : JSON.stringify(input.before),
      after: input.after === undefined ? null : JSON.stringify(input.after),
      ...(input.createdAt === undefined ? {} : { createdAt: input.createdAt }),
    },
  });
  return toEntry(row);
}

export interface SessionAuditInput extends Omit<AuditInput, 'before' | 'after' | 'createdAt'> {
  /** A session ends after this long without a new act. */
  idleMs: number;
  now?: Date;
  /** The session's `after` with this act added: from the open session's `after`, or from nothing. */
  extend: (previous: Record<string, unknown> | undefined) => Record<string, unknown>;
}

/**
 * Many small acts of one person on one subject (ticking files as viewed) make one entry per
 * session, updated in place, rather than one entry each: the actor's newest entry with this
 * action on this subject is extended while its last act (`lastAt` in its `after`) is less than
 * `idleMs` ago, and a new entry starts the next session.
 */
export async function recordSessionAudit(db: AuditDb, input: SessionAuditInput): Promise<AuditEntry> {
  const now = input.now ?? new Date();
  const newest = await db.auditEvent.findFirst({
    where: { actorId: input.actor.id, action: input.action, subjectType: input.subjectType, subjectId: input.subjectId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  const previous = newest?.after ? (JSON.parse(newest.after) as Record<string, unknown>) : undefined;
  const lastAt = typeof previous?.lastAt === 'string' ? Date.parse(previous.lastAt) : NaN;
  const open = newest && now.getTime() - lastAt < input.idleMs && now.getTime() >= lastAt;
  const after = { ...input.extend(open ? previous : undefined), lastAt: now.toISOString() };
  if (open) return toEntry(await db.auditEvent.update({ where: { id: newest.id }, data: { after: JSON.stringify(after) } }));
  const { actor, action, subjectType, subjectId } = input;
  return recordAudit(db, { actor, action, subjectType, subjectId, after, createdAt: now });
}

/** The actions and subject types the log holds, for its filters. */
export async function auditFacets(db: AuditDb): Promise<{ actions: string[]; subjectTypes: string[] }> {
  const [actions, subjectTypes] = await Promise.all([
    db.auditEvent.findMany({ distinct: ['action'], select: { action: true }, orderBy: { action: 'asc' } }),
    db.auditEvent.findMany({ distinct: ['subjectType'], select: { subjectType: true }, orderBy: { subjectType: 'asc' } }),
  ]);
  return { actions: actions.map((r) => r.action), subjectTypes: subjectTypes.map((r) => r.subjectType) };
}

/** Newest first; pass the last entry's id as `cursor` for the next page. */
export async function listAudit(db: AuditDb, query: AuditQuery = {}): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(query.limit ?? AUDIT_PAGE_LIMIT, 1), 500);
  const rows = await db.auditEvent.findMany({
    where: { action: query.action, subjectType: query.subjectType, subjectId: query.subjectId },
    // The id breaks ties between entries recorded within the same millisecond.
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
    ...(query.cursor ? { cursor: { id: query.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, limit);
  return { entries: page.map(toEntry), nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
}

// A row as stored: `before` and `after` are JSON text.
type AuditRow = Omit<AuditEntry, 'before' | 'after'> & { before: string | null; after: string | null };

function toEntry(row: AuditRow): AuditEntry {
  return { ...row, before: parseJson(row.before), after: parseJson(row.after) };
}

function parseJson(text: string | null): unknown {
  return text === null ? undefined : (JSON.parse(text) as unknown);
}

/** A decision by an actor on one subject, in the caller's transaction when given one. */
export function auditDecision(
  db: AuditDb,
  actor: AuditActor,
  action: string,
  subject: { type: string; id: string },
  before: unknown,
  after: unknown,
): Promise<AuditEntry> {
  return recordAudit(db, { actor: { id: actor.id, email: actor.email }, action, subjectType: subject.type, subjectId: subject.id, before, after });
}
