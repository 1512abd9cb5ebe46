// Moves one generation to a new state: the move is asserted against the state machine and the
// revision bumped, so a reviewer holding an older revision is told it changed.
import type { Db } from '../db/client.ts';
import type { Generation } from '../db/generated/client.ts';
import { transition, type GenerationState } from './states.ts';

export interface MoveData {
  versionId?: string;
  error?: string | null;
}

export async function moveGeneration(db: Db, from: { id: string; state: string }, to: GenerationState, data: MoveData = {}): Promise<Generation> {
  return db.generation.update({ where: { id: from.id }, data: { state: transition(from.state, to), revision: { increment: 1 }, ...data } });
}
