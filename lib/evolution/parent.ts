// The environment the next generation evolves from: the newest generation that settled on a
// validated version and still stands (not rejected, not superseded, not sent back for changes),
// or the seed when there is none.
import type { Db } from '../db/index.ts';
import { computeDifficulty, opaqueStepIds, storedAsUnknown } from '../difficulty/index.ts';
import { loadBundle, getVersion } from '../env/index.ts';
import { parseSequence } from '../sequence/index.ts';
import type { Sequence } from '../sequence/index.ts';
import type { ParentEnvironment, Synthesiser } from '../synth/index.ts';
import type { LoadedLineage } from './lineage.ts';
import { STANDING_STATES } from '../states/index.ts';
import { supersedeIncoherent } from './supersede.ts';

export interface GenerationParent extends ParentEnvironment {
  number: number; // the parent's generation number (0 = the seed)
}

export async function currentParent(db: Db, lineage: LoadedLineage, synthesiser: Synthesiser): Promise<GenerationParent> {
  // A generation resting on a version that is no longer current is superseded now, not built on.
  await db.$transaction((tx) => supersedeIncoherent(tx, lineage.row.id));
  const latest = await db.generation.findFirst({
    where: { lineageId: lineage.row.id, state: { in: [...STANDING_STATES] }, versionId: { not: null } },
    orderBy: { number: 'desc' },
  });
  return parentFor(db, latest?.versionId ?? lineage.row.seedVersionId, latest?.number ?? 0, synthesiser);
}

export async function parentFor(db: Db, versionId: string, number: number, synthesiser: Synthesiser): Promise<GenerationParent> {
  const bundle = await loadBundle(db, versionId);
  const sequence = await sequenceOf(db, versionId, bundle, synthesiser);
  // A seed's difficulty is known once its sequence is: the baseline the generations are compared to.
  // One with an undescribed step has none. The row is (re)computed whenever it disagrees with the
  // sequence read now: a number for an opaque sequence (the smoothing floor earlier releases
  // charged), or "unknown" for a sequence Claude has since extracted.
  const stored = await db.environmentVersion.findUniqueOrThrow({ where: { id: versionId }, select: { difficultyLength: true, difficultyModel: true } });
  const opaque = opaqueStepIds(sequence).length > 0;
  const agrees = opaque ? storedAsUnknown(stored) : stored.difficultyLength !== null;
  if (!agrees) await computeDifficulty(db, versionId, sequence);
  return { number, versionId, bundle, sequence };
}

// A version made by Envolve carries its sequence; an imported seed's is read off by the proposer.
async function sequenceOf(db: Db, versionId: string, bundle: ParentEnvironment['bundle'], synthesiser: Synthesiser): Promise<Sequence> {
  const version = await getVersion(db, versionId);
  const stored = version?.metadata.sequence;
  if (stored !== undefined) return parseSequence(stored);
  return synthesiser.extractSequence(bundle);
}
