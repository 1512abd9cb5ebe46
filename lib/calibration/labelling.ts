// An annotator's answer on one item. A first label needs the item's lease (or a free, open item);
// an annotator may revise their own label until a lead has adjudicated the item.
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { claimNext, heldBy, loadSlots, openTo, type AnnotatorQueue } from './assignment.ts';
import { agreedLabel, refreshSetState } from './consensus.ts';
import { CalibrationConflictError, CalibrationNotFoundError } from './errors.ts';
import type { HumanLabel } from './metrics-kappa.ts';

export const labelInputSchema = z.object({
  answer: z.enum(['pass', 'fail', 'unsure']),
  note: z.string().max(4000).default(''),
  durationMs: z
    .number()
    .int()
    .min(0)
    .max(24 * 3600_000)
    .optional(),
});

export type LabelInput = z.input<typeof labelInputSchema>;

/** Stores the label, settles the item if its labels agree, and leases the annotator their next item. */
export async function submitLabel(
  db: Db,
  target: { setId: string; itemId: string; annotatorId: string },
  input: LabelInput,
  now = new Date(),
): Promise<AnnotatorQueue> {
  const { answer, note, durationMs } = labelInputSchema.parse(input);
  const { set, slots } = await loadSlots(db, target.setId, target.annotatorId);
  const slot = slots.find((s) => s.id === target.itemId);
  if (!slot) throw new CalibrationNotFoundError(`item ${target.itemId} is not in set ${target.setId}`);
  const revising = slot.labellers.includes(target.annotatorId);
  if (!revising && !heldBy(slot, target.annotatorId, now) && !openTo(slot, target.annotatorId, set.overlap, now)) {
    throw new CalibrationConflictError(
      slot.labellers.length >= set.overlap ? 'this item already has all its labels' : 'this item is being labelled by another annotator',
    );
  }

  await db.$transaction(async (tx) => {
    const item = await tx.calibrationItem.findUniqueOrThrow({ where: { id: slot.id }, select: { adjudicatedAt: true } });
    if (revising && item.adjudicatedAt) throw new CalibrationConflictError('a lead has adjudicated this item; your label can no longer change');
    await tx.calibrationLabel.upsert({
      where: { itemId_annotatorId: { itemId: slot.id, annotatorId: target.annotatorId } },
      create: { itemId: slot.id, annotatorId: target.annotatorId, answer, note, durationMs: durationMs ?? null, createdAt: now },
      update: { answer, note, durationMs: durationMs ?? null },
    });
    const labels = await tx.calibrationLabel.findMany({ where: { itemId: slot.id }, select: { answer: true } });
    await tx.calibrationItem.update({
      where: { id: slot.id },
      data: {
        finalLabel: agreedLabel(
          labels.map((l) => l.answer as HumanLabel),
          set.overlap,
        ),
        // Submitting releases the lease, so the next annotator can take the item at once.
        ...(slot.assigneeId === target.annotatorId ? { assigneeId: null, assignedAt: null } : {}),
      },
    });
    await refreshSetState(tx, target.setId);
  });
  return claimNext(db, target.setId, target.annotatorId, now);
}
