// Items whose annotators disagree go to a lead, who records the final label (audited). The lead
// sees the labels and notes but not the verifier's verdict: the final label is the ground truth
// the verifier is measured against, so it must not be nudged by the thing being measured.
import { z } from 'zod';
import type { AuditActor } from '../audit/index.ts';
import { recordAudit } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { disagree, refreshSetState } from './consensus.ts';
import { CalibrationConflictError, CalibrationNotFoundError } from './errors.ts';
import type { HumanLabel } from './metrics-kappa.ts';

export const adjudicationSchema = z.object({
  label: z.enum(['pass', 'fail', 'unsure']),
  note: z.string().max(4000).default(''),
});

export interface AdjudicationItem {
  id: string;
  position: number;
  rolloutId: string;
  labels: { annotator: { id: string; email: string; name: string }; answer: HumanLabel; note: string }[];
  finalLabel: HumanLabel | null;
  adjudicatedBy: string | null;
  adjudicatedAt: Date | null;
  adjudicationNote: string | null;
}

/** Disagreements, open ones first, then those already adjudicated. */
export async function adjudicationQueue(db: Db, setId: string): Promise<AdjudicationItem[]> {
  const set = await db.calibrationSet.findUnique({
    where: { id: setId },
    select: {
      overlap: true,
      items: {
        orderBy: { position: 'asc' },
        select: {
          id: true,
          position: true,
          rolloutId: true,
          finalLabel: true,
          adjudicatedById: true,
          adjudicatedAt: true,
          adjudicationNote: true,
          labels: { orderBy: { createdAt: 'asc' }, select: { annotatorId: true, answer: true, note: true } },
        },
      },
    },
  });
  if (!set) throw new CalibrationNotFoundError(`no calibration set has the id ${setId}`);
  const contested = set.items.filter((i) =>
    disagree(
      i.labels.map((l) => l.answer),
      set.overlap,
    ),
  );
  const userIds = [...new Set(contested.flatMap((i) => [...i.labels.map((l) => l.annotatorId), i.adjudicatedById ?? '']))];
  const users = await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true, name: true } });
  const user = (id: string) => users.find((u) => u.id === id) ?? { id, email: id, name: id };
  return contested
    .map((i) => ({
      id: i.id,
      position: i.position,
      rolloutId: i.rolloutId,
      labels: i.labels.map((l) => ({ annotator: user(l.annotatorId), answer: l.answer as HumanLabel, note: l.note })),
      finalLabel: i.finalLabel as HumanLabel | null,
      adjudicatedBy: i.adjudicatedById ? user(i.adjudicatedById).email : null,
      adjudicatedAt: i.adjudicatedAt,
      adjudicationNote: i.adjudicationNote,
    }))
    .sort((a, b) => Number(a.finalLabel !== null) - Number(b.finalLabel !== null) || a.position - b.position);
}

export async function adjudicate(
  db: Db,
  actor: AuditActor,
  target: { setId: string; itemId: string },
  input: z.input<typeof adjudicationSchema>,
): Promise<{ finalLabel: HumanLabel }> {
  const { label, note } = adjudicationSchema.parse(input);
  return db.$transaction(async (tx) => {
    const item = await tx.calibrationItem.findFirst({
      where: { id: target.itemId, setId: target.setId },
      select: { id: true, finalLabel: true, adjudicatedById: true, set: { select: { overlap: true } }, labels: { select: { answer: true } } },
    });
    if (!item) throw new CalibrationNotFoundError(`item ${target.itemId} is not in set ${target.setId}`);
    if (
      !disagree(
        item.labels.map((l) => l.answer),
        item.set.overlap,
      )
    ) {
      throw new CalibrationConflictError(
        item.labels.length < item.set.overlap ? 'this item is still short of labels' : 'the annotators agree on this item; there is nothing to adjudicate',
      );
    }
    await tx.calibrationItem.update({
      where: { id: item.id },
      data: { finalLabel: label, adjudicatedById: actor.id, adjudicatedAt: new Date(), adjudicationNote: note },
    });
    await recordAudit(tx, {
      actor,
      action: 'calibration.adjudicate',
      subjectType: 'calibration-item',
      subjectId: item.id,
      before: { finalLabel: item.finalLabel, labels: item.labels.map((l) => l.answer) },
      after: { finalLabel: label, note },
    });
    await refreshSetState(tx, target.setId);
    return { finalLabel: label };
  });
}
