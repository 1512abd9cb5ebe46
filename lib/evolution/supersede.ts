// A lineage stays coherent: every generation that is still in the running rests on the seed or on
// the *current* version of a standing generation. Evolution runs ahead of review, so when a
// reviewer rejects generation N, sends it back for changes, or N gets a new version (a revision,
// a re-validation), the generations evolved from N's old version (directly or through each other)
// rest on a version that will never be served. They are marked superseded — kept and visible with
// why, never served, never reviewed — in the same transaction as the change that caused it, and
// the next `envolve evolve` (or the revision's own follow-up) evolves again from the newest
// standing generation. Issues 16 and 26.
import type { AuditActor } from '../audit/index.ts';
import type { Prisma } from '../db/index.ts';
import { changeGenerationState } from './generation-writer.ts';
import { GenerationState, inGroup, STANDING_STATES, SUPERSEDABLE_STATES } from '../states/index.ts';

// Who supersedes when no person asked for it: the evolution itself (a settle, a sweep).
export const EVOLUTION_ACTOR: AuditActor = { id: null, email: 'envolve:evolution' };

export interface Superseded {
  id: string;
  number: number;
  reason: string;
}

type Tx = Prisma.TransactionClient;

interface Row {
  id: string;
  number: number;
  state: string;
  revision: number;
  versionId: string | null;
  parentVersionId: string;
  error: string | null;
}

/**
 * Supersedes every generation of the lineage whose parent is not the seed nor a standing
 * generation's current version (generations mid-loop are left to the process settling them: the
 * settle sweeps again). Each one is audited; returns them in number order.
 */
export async function supersedeIncoherent(tx: Tx, lineageId: string, actor: AuditActor = EVOLUTION_ACTOR): Promise<Superseded[]> {
  const { seedVersionId } = await tx.lineage.findUniqueOrThrow({ where: { id: lineageId }, select: { seedVersionId: true } });
  const rows: Row[] = await tx.generation.findMany({
    where: { lineageId },
    orderBy: [{ number: 'asc' }, { createdAt: 'asc' }],
    select: { id: true, number: true, state: true, revision: true, versionId: true, parentVersionId: true, error: true },
  });
  const stale = incoherentGenerations(seedVersionId, rows).filter((row) => inGroup(row.state, SUPERSEDABLE_STATES));
  const superseded: Superseded[] = [];
  for (const row of stale) {
    const reason = await reasonFor(tx, rows, row);
    await changeGenerationState(tx, row, {
      to: GenerationState.superseded,
      data: { error: reason },
      // The error it had is kept with the audit: undoing the decision that superseded it restores it.
      audit: { actor, action: 'generation.supersede', before: { error: row.error }, after: { reason } },
    });
    // Its descendants, next in the list, name it as superseded.
    row.state = GenerationState.superseded;
    superseded.push({ id: row.id, number: row.number, reason });
  }
  return superseded;
}

export interface LineageLink {
  state: string;
  versionId: string | null;
  parentVersionId: string;
}

/**
 * The generations, of a lineage's in number order, resting on neither the seed nor a standing
 * generation's current version, whatever their own state.
 */
export function incoherentGenerations<T extends LineageLink>(seedVersionId: string, rows: readonly T[]): T[] {
  const live = new Set([seedVersionId]);
  const incoherent: T[] = [];
  for (const row of rows) {
    const coherent = live.has(row.parentVersionId);
    if (coherent && row.versionId && inGroup(row.state, STANDING_STATES)) live.add(row.versionId);
    if (!coherent) incoherent.push(row);
  }
  return incoherent;
}

/** Why a generation's parent is not current, or null when it is (the guard before a review). */
export async function incoherentParent(tx: Tx, generation: { lineageId: string; number: number; parentVersionId: string }): Promise<string | null> {
  const { seedVersionId } = await tx.lineage.findUniqueOrThrow({ where: { id: generation.lineageId }, select: { seedVersionId: true } });
  if (generation.parentVersionId === seedVersionId) return null;
  const rows = await tx.generation.findMany({
    where: { lineageId: generation.lineageId, number: { lt: generation.number } },
    select: { id: true, number: true, state: true, revision: true, versionId: true, parentVersionId: true, error: true },
  });
  const parent = rows.find((row) => row.versionId === generation.parentVersionId);
  if (parent && inGroup(parent.state, STANDING_STATES)) return null;
  return reasonFor(tx, rows, generation);
}

// The reason names the parent generation and what happened to it.
async function reasonFor(tx: Tx, rows: Row[], child: { parentVersionId: string }): Promise<string> {
  const version = child.parentVersionId.slice(0, 12);
  const parent = rows.find((row) => row.versionId === child.parentVersionId);
  if (parent) {
    const n = parent.number;
    switch (parent.state) {
      case GenerationState.rejected:
        return `superseded: evolved from generation ${n}, which a reviewer rejected`;
      case GenerationState.changesRequested:
        return `superseded: built on generation ${n}'s version ${version}, which a reviewer sent back for changes; the lineage evolves again from its revision`;
      case GenerationState.planning:
      case GenerationState.modifying:
      case GenerationState.validating:
        return `superseded: built on generation ${n}'s version ${version}, which is being replaced (a revision or a re-validation is running)`;
      case GenerationState.superseded:
        return `superseded: built on generation ${n}, which was itself superseded`;
      default:
        return `superseded: built on generation ${n}, which is ${parent.state.replaceAll('-', ' ')}`;
    }
  }
  const replaced = await tx.attempt.findFirst({
    where: { candidateVersionId: child.parentVersionId, generation: { id: { in: rows.map((row) => row.id) } } },
    select: { generationId: true },
  });
  const owner = rows.find((row) => row.id === replaced?.generationId);
  if (owner) {
    const now = owner.versionId ? `version ${owner.versionId.slice(0, 12)}` : 'no version';
    return `superseded: built on generation ${owner.number}'s replaced version ${version}; generation ${owner.number} is now ${now}`;
  }
  return `superseded: its parent version ${version} is no generation's current version`;
}
