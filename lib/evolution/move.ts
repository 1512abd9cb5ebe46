// Moves one generation on behalf of the evolution (or a person taking a held generation's exit):
// the state change itself is the one writer's (generation-writer.ts: revision checked and
// bumped, move asserted, audited, one transaction). A move that settles the generation also sweeps
// its lineage (supersede.ts): a new version, or a parent that changed while this one was in the
// loops, leaves no generation resting on a version that is not current.
import type { AuditActor } from '../audit/index.ts';
import type { Db, Generation, Prisma } from '../db/index.ts';
import { changeGenerationState, type ExpectedGeneration, type StateData } from './generation-writer.ts';
import { EVOLUTION_ACTOR, supersedeIncoherent, type Superseded } from './supersede.ts';
import { inGroup, IN_PROGRESS_STATES, type GenerationState } from '../states/index.ts';

export type MoveData = Pick<StateData, 'versionId' | 'error'>;

export interface MoveNote {
  actor?: AuditActor;
  action?: string; // the audit action; default 'generation.move'
  detail?: Record<string, unknown>; // recorded with the move (a comment, a justification)
  // Called inside the transaction after the move and the sweep: follow-up jobs commit with it.
  then?: (tx: Prisma.TransactionClient, moved: Generation) => Promise<void>;
}

export async function moveGeneration(db: Db, from: ExpectedGeneration, to: GenerationState, data: MoveData = {}, note: MoveNote = {}): Promise<Generation> {
  return db.$transaction((tx) => moveGenerationIn(tx, from, to, data, note));
}

export async function moveGenerationIn(
  tx: Prisma.TransactionClient,
  from: ExpectedGeneration,
  to: GenerationState,
  data: MoveData = {},
  note: MoveNote = {},
): Promise<Generation> {
  const actor = note.actor ?? EVOLUTION_ACTOR;
  let superseded: Superseded[] = [];
  const moved = await changeGenerationState(tx, from, {
    to,
    data,
    audit: {
      actor,
      action: note.action ?? 'generation.move',
      after: note.detail,
      effects: async (inner, row) => {
        superseded = inGroup(to, IN_PROGRESS_STATES) ? [] : await supersedeIncoherent(inner, row.lineageId, actor);
        return { superseded: superseded.length > 0 ? superseded.map((s) => s.id) : undefined };
      },
    },
  });
  await note.then?.(tx, moved);
  // The sweep may have superseded this very generation (its parent changed meanwhile).
  return superseded.some((s) => s.id === moved.id) ? tx.generation.findUniqueOrThrow({ where: { id: moved.id } }) : moved;
}
