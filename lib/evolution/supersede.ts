// Rejection never stalls a lineage (issue 16). Evolution runs ahead of review, so when a reviewer
// rejects generation N, the generations evolved from it (directly or through each other) rest on
// a version that will never be served. They are marked superseded: kept and visible with why,
// never served, and no longer "pending" — so the next `envolve evolve` (or the scheduler) resumes
// from the newest generation that is approved or still awaiting review, outside the rejected branch.
import type { Prisma } from '../db/generated/client.ts';
import { GenerationState, inGroup, SUPERSEDABLE_STATES, transition } from './states.ts';

// Generations in other states stay what they are: already out of the running, or mid-loop (the
// process evolving one settles it; it is superseded when its parent is rejected again or on the
// next rejection).

export async function supersedeDescendants(
  tx: Prisma.TransactionClient,
  rejected: { id: string; lineageId: string; number: number; versionId: string | null },
): Promise<string[]> {
  if (!rejected.versionId) return [];
  const later = await tx.generation.findMany({
    where: { lineageId: rejected.lineageId, number: { gt: rejected.number } },
    orderBy: [{ number: 'asc' }, { createdAt: 'asc' }],
    select: { id: true, number: true, parentVersionId: true, versionId: true, state: true },
  });
  const branch = new Set([rejected.versionId]);
  const superseded: string[] = [];
  for (const generation of later) {
    if (!branch.has(generation.parentVersionId)) continue;
    if (generation.versionId) branch.add(generation.versionId);
    if (!inGroup(generation.state, SUPERSEDABLE_STATES)) continue;
    await tx.generation.update({
      where: { id: generation.id },
      data: {
        state: transition(generation.state, GenerationState.superseded),
        revision: { increment: 1 },
        error: `superseded: evolved from generation ${rejected.number}, which a reviewer rejected`,
      },
    });
    superseded.push(generation.id);
  }
  return superseded;
}
