// What an annotator's browser may receive for one item: the trajectory and their own label.
// Never the verifier's verdict, never another annotator's label, never the stratum: the
// payload is built from the allow-list of blind.ts.
import type { Db } from '../db/index.ts';
import { heldBy, loadSlots, openTo } from './assignment.ts';
import { BLIND_ITEM_FIELDS, BLIND_LABEL_FIELDS, BLIND_TRAJECTORY_FIELDS, pick } from './blind.ts';
import { CalibrationConflictError, CalibrationNotFoundError } from './errors.ts';
import type { HumanLabel } from './metrics-kappa.ts';
import { trajectoryView, type TrajectoryView } from './trajectory-view.ts';

export interface AnnotatorItemView {
  id: string;
  setId: string;
  position: number;
  items: number;
  trajectory: TrajectoryView;
  myLabel: { answer: HumanLabel; note: string } | null;
}

/**
 * An item is visible to an annotator of the set who labelled it, holds its lease, or could take
 * it next (so the page can prefetch it). Anything else — an item another annotator holds, or
 * one that already has its labels — is refused.
 */
export async function annotatorItemView(db: Db, target: { setId: string; itemId: string; annotatorId: string }, now = new Date()): Promise<AnnotatorItemView> {
  const { set, slots } = await loadSlots(db, target.setId, target.annotatorId);
  const slot = slots.find((s) => s.id === target.itemId);
  if (!slot) throw new CalibrationNotFoundError(`item ${target.itemId} is not in set ${target.setId}`);
  const mine = slot.labellers.includes(target.annotatorId);
  if (!mine && !heldBy(slot, target.annotatorId, now) && !openTo(slot, target.annotatorId, set.overlap, now)) {
    throw new CalibrationConflictError('this item is not yours to label');
  }
  const item = await db.calibrationItem.findUniqueOrThrow({
    where: { id: slot.id },
    select: { rolloutId: true, labels: { where: { annotatorId: target.annotatorId }, select: { answer: true, note: true } } },
  });
  const label = item.labels[0];
  const trajectory = await trajectoryView(db, item.rolloutId);
  const view: AnnotatorItemView = {
    id: slot.id,
    setId: set.id,
    position: slot.position,
    items: slots.length,
    trajectory: pick(trajectory, BLIND_TRAJECTORY_FIELDS),
    myLabel: label ? pick({ answer: label.answer as HumanLabel, note: label.note }, BLIND_LABEL_FIELDS) : null,
  };
  return pick(view, BLIND_ITEM_FIELDS);
}
