// Moves one generation to a new state: the move is asserted against the state machine, the
// revision bumped (a reviewer holding an older revision is told it changed) and the move audited,
// in one transaction. A move that settles the generation also sweeps its lineage (supersede.ts):
// a new version, or a parent that changed while this one was in the loops, leaves no generation
// resting on a version that is not current.
import { recordAudit, type AuditActor } from '../audit/record.ts';
import type { Db } from '../db/client.ts';
import type { Generation, Prisma } from '../db/generated/client.ts';
import { EVOLUTION_ACTOR, supersedeIncoherent } from './supersede.ts';
import { inGroup, IN_PROGRESS_STATES, transition, type GenerationState } from './states.ts';

export interface MoveData {
  versionId?: string;
  error?: string | null;
}

export interface MoveNote {
  actor?: AuditActor;
  action?: string; // the audit action; default 'generation.move'
  detail?: Record<string, unknown>; // recorded with the move (a comment, a justification)
  // Called inside the transaction after the move and the sweep: follow-up jobs commit with it.
  then?: (tx: Prisma.TransactionClient, moved: Generation) => Promise<void>;
}

export async function moveGeneration(
  db: Db,
  from: { id: string; state: string },
  to: GenerationState,
  data: MoveData = {},
  note: MoveNote = {},
): Promise<Generation> {
  return db.$transaction((tx) => moveGenerationIn(tx, from, to, data, note));
}

export async function moveGenerationIn(
  tx: Prisma.TransactionClient,
  from: { id: string; state: string },
  to: GenerationState,
  data: MoveData = {},
  note: MoveNote = {},
): Promise<Generation> {
  const actor = note.actor ?? EVOLUTION_ACTOR;
  const before = await tx.generation.findUniqueOrThrow({ where: { id: from.id } });
  const moved = await tx.generation.update({
    where: { id: from.id },
    data: { state: transition(before.state, to), revision: { increment: 1 }, ...data },
  });
  const superseded = inGroup(to, IN_PROGRESS_STATES) ? [] : await supersedeIncoherent(tx, moved.lineageId, actor);
  await recordAudit(tx, {
    actor,
    action: note.action ?? 'generation.move',
    subjectType: 'generation',
    subjectId: moved.id,
    before: { state: before.state, revision: before.revision, versionId: before.versionId },
    after: {
      state: moved.state,
      revision: moved.revision,
      versionId: moved.versionId,
      ...note.detail,
      superseded: superseded.length > 0 ? superseded.map((s) => s.id) : undefined,
    },
  });
  await note.then?.(tx, moved);
  // The sweep may have superseded this very generation (its parent changed meanwhile).
  return superseded.some((s) => s.id === moved.id) ? tx.generation.findUniqueOrThrow({ where: { id: moved.id } }) : moved;
}
