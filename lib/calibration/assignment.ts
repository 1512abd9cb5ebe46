// Who labels what next. An item is held by one annotator at a time (a lease) until it has
// `overlap` labels; the lease ends when the holder submits or after LEASE_MS, so an annotator
// who walks away does not block the item forever. Leaving and coming back resumes on the item
// still leased to you.
import type { Db } from '../db/index.ts';
import { CalibrationNotFoundError } from './errors.ts';
import { annotatorIdsOf } from './sets.ts';

export const LEASE_MS = 30 * 60_000;

export interface ItemSlot {
  id: string;
  position: number;
  assigneeId: string | null;
  assignedAt: Date | null;
  labellers: string[];
}

export interface AnnotatorQueue {
  setId: string;
  setName: string;
  items: number;
  overlap: number;
  /** Items this annotator labelled, in set order: where ← and → move. */
  labelled: string[];
  /** The item leased to this annotator now, or null when nothing is left for them. */
  current: string | null;
  /** The item they will most likely get next (not leased): the page prefetches it. */
  upcoming: string | null;
  /** Items still open to this annotator (not labelled by them and short of labels), current included. */
  remaining: number;
}

const leaseLive = (slot: Pick<ItemSlot, 'assignedAt'>, now: Date) => slot.assignedAt !== null && now.getTime() - slot.assignedAt.getTime() < LEASE_MS;

/** Open to this annotator: not labelled by them, short of labels, and not leased to someone else. */
export function openTo(slot: ItemSlot, annotatorId: string, overlap: number, now: Date): boolean {
  if (slot.labellers.includes(annotatorId) || slot.labellers.length >= overlap) return false;
  return slot.assigneeId === null || slot.assigneeId === annotatorId || !leaseLive(slot, now);
}

export function heldBy(slot: ItemSlot, annotatorId: string, now: Date): boolean {
  return slot.assigneeId === annotatorId && leaseLive(slot, now) && !slot.labellers.includes(annotatorId);
}

export async function loadSlots(db: Db, setId: string, annotatorId: string) {
  const set = await db.calibrationSet.findUnique({
    where: { id: setId },
    select: {
      id: true,
      name: true,
      overlap: true,
      annotatorIds: true,
      items: {
        orderBy: { position: 'asc' },
        select: { id: true, position: true, assigneeId: true, assignedAt: true, labels: { select: { annotatorId: true } } },
      },
    },
  });
  if (!set || !annotatorIdsOf(set.annotatorIds).includes(annotatorId)) {
    throw new CalibrationNotFoundError(`no calibration set ${setId} with you among its annotators`);
  }
  const slots: ItemSlot[] = set.items.map((i) => ({ ...i, labellers: i.labels.map((l) => l.annotatorId) }));
  return { set, slots };
}

/**
 * The annotator's queue after leasing them an item: the one they already hold (resume), else the
 * first open one in set order. The conditional update makes two annotators racing for the same
 * free item end with one each.
 */
export async function claimNext(db: Db, setId: string, annotatorId: string, now = new Date()): Promise<AnnotatorQueue> {
  for (let tries = 0; tries < 5; tries++) {
    const { set, slots } = await loadSlots(db, setId, annotatorId);
    const held = slots.find((s) => heldBy(s, annotatorId, now));
    if (held) return queueOf(set, slots, annotatorId, held.id, now);
    const open = slots.find((s) => openTo(s, annotatorId, set.overlap, now));
    if (!open) return queueOf(set, slots, annotatorId, null, now);
    const expiredBefore = new Date(now.getTime() - LEASE_MS);
    const { count } = await db.calibrationItem.updateMany({
      where: { id: open.id, OR: [{ assigneeId: null }, { assigneeId: annotatorId }, { assignedAt: { lt: expiredBefore } }] },
      data: { assigneeId: annotatorId, assignedAt: now },
    });
    if (count === 1) {
      open.assigneeId = annotatorId;
      open.assignedAt = now;
      return queueOf(set, slots, annotatorId, open.id, now);
    }
  }
  throw new Error('could not lease an item after 5 tries: other annotators keep taking them');
}

/** The queue without leasing anything (for reads). */
export async function peekQueue(db: Db, setId: string, annotatorId: string, now = new Date()): Promise<AnnotatorQueue> {
  const { set, slots } = await loadSlots(db, setId, annotatorId);
  return queueOf(set, slots, annotatorId, slots.find((s) => heldBy(s, annotatorId, now))?.id ?? null, now);
}

function queueOf(
  set: { id: string; name: string; overlap: number },
  slots: ItemSlot[],
  annotatorId: string,
  current: string | null,
  now: Date,
): AnnotatorQueue {
  // claimNext takes the first open item in set order, so that is the one worth prefetching.
  const open = slots.filter((s) => s.id !== current && openTo(s, annotatorId, set.overlap, now));
  return {
    setId: set.id,
    setName: set.name,
    items: slots.length,
    overlap: set.overlap,
    labelled: slots.filter((s) => s.labellers.includes(annotatorId)).map((s) => s.id),
    current,
    upcoming: open[0]?.id ?? null,
    remaining: open.length + (current ? 1 : 0),
  };
}
