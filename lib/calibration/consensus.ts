// When an item has its final label, and where the set stands. Agreement of all `overlap`
// labels settles an item; any disagreement leaves it for a lead to adjudicate.
import type { Db } from '../db/index.ts';
import type { HumanLabel } from './metrics-kappa.ts';
import { SetState } from './sets.ts';

type Tx = Pick<Db, 'calibrationItem' | 'calibrationSet'>;

/** The agreed label once an item has its labels; null while short of labels or in disagreement. */
export function agreedLabel(answers: readonly HumanLabel[], overlap: number): HumanLabel | null {
  if (answers.length < overlap || answers.length === 0) return null;
  return answers.every((a) => a === answers[0]) ? answers[0]! : null;
}

export function disagree(answers: readonly string[], overlap: number): boolean {
  return answers.length >= overlap && answers.some((a) => a !== answers[0]);
}

export function setStateOf(items: readonly { labels: number; finalLabel: string | null }[], overlap: number): SetState {
  if (items.some((i) => i.labels < overlap)) return SetState.labelling;
  return items.every((i) => i.finalLabel !== null) ? SetState.complete : SetState.adjudicating;
}

export async function refreshSetState(tx: Tx, setId: string): Promise<SetState> {
  const set = await tx.calibrationSet.findUniqueOrThrow({
    where: { id: setId },
    select: { overlap: true, items: { select: { finalLabel: true, _count: { select: { labels: true } } } } },
  });
  const state = setStateOf(
    set.items.map((i) => ({ labels: i._count.labels, finalLabel: i.finalLabel })),
    set.overlap,
  );
  await tx.calibrationSet.update({ where: { id: setId }, data: { state } });
  return state;
}
