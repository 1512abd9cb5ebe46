// Where a lineage waits for a person before it may evolve further: a generation held in
// needs-attention (until someone takes one of its exits, lib/evolution/attention.ts), or a
// generation whose version is being replaced (changes requested, a revision or a re-validation
// running). Evolving past either would build on a version nobody has settled — or silently
// re-make the held generation's number from the same parent.
import type { Db } from '../db/index.ts';
import { GenerationState, IN_PROGRESS_STATES } from '../states/index.ts';

export interface LineageStop {
  kind: 'needs-attention' | 'revision-pending';
  generationId: string;
  number: number;
  message: string;
}

export async function lineageStop(db: Db, lineageId: string): Promise<LineageStop | null> {
  const held = await db.generation.findFirst({ where: { lineageId, state: GenerationState.needsAttention }, orderBy: { number: 'asc' } });
  if (held) {
    return {
      kind: 'needs-attention',
      generationId: held.id,
      number: held.number,
      message:
        `the lineage stopped at generation ${held.number}, which needs attention (${held.error ?? 'no verdict'}); nothing was evolved. ` +
        `Take one of its exits first: \`envolve attention ${held.id} --retry [--budget 2]\`, \`--discard "<reason>"\` or, ` +
        `for a lead, \`--accept "<justification>"\` (or from its review page)`,
    };
  }
  // A revision or re-validation keeps the generation's current version set while it runs; an
  // original evolution has none until it settles.
  const replacing = await db.generation.findFirst({
    where: {
      lineageId,
      OR: [{ state: GenerationState.changesRequested }, { state: { in: [...IN_PROGRESS_STATES] }, versionId: { not: null } }],
    },
    orderBy: { number: 'asc' },
  });
  if (!replacing) return null;
  return {
    kind: 'revision-pending',
    generationId: replacing.id,
    number: replacing.number,
    message: `generation ${replacing.number} is being revised (${replacing.state.replaceAll('-', ' ')}); nothing was evolved. The lineage evolves again from its revision once it settles`,
  };
}
