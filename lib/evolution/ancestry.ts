// What the counter-check compares a candidate with: the reference solution of every version it
// descends from (its parent first, back to the lineage's seed), and the steps it changed or added
// relative to its parent. Read from the lineage's generations and the versions' stored sequences.
import type { Db } from '../db/index.ts';
import { getVersion, loadBundle, NEAR_MISS_DIR } from '../env/index.ts';
import { filesUnder } from '../bundle/index.ts';
import { diffSequences, parseSequence, type Sequence } from '../sequence/index.ts';
import type { AncestorSolution, SolutionCheckInput } from '../validate/index.ts';

export async function solutionCheckInput(db: Db, lineageId: string, parentVersionId: string, candidateVersionId: string): Promise<SolutionCheckInput> {
  const lineage = await db.lineage.findUniqueOrThrow({ where: { id: lineageId }, select: { seedVersionId: true } });
  const ancestors: AncestorSolution[] = [];
  const seen = new Set<string>();
  let versionId: string | null = parentVersionId;
  while (versionId !== null && !seen.has(versionId)) {
    seen.add(versionId);
    const generation: { number: number; parentVersionId: string } | null =
      versionId === lineage.seedVersionId
        ? null
        : await db.generation.findFirst({ where: { lineageId, versionId }, orderBy: { number: 'desc' }, select: { number: true, parentVersionId: true } });
    ancestors.push(
      await ancestorSolution(
        db,
        versionId,
        generation ? `generation ${generation.number}` : versionId === lineage.seedVersionId ? 'the seed' : 'an earlier version',
      ),
    );
    versionId = generation?.parentVersionId ?? null;
  }
  return { ancestors, changedSteps: await changedSteps(db, parentVersionId, candidateVersionId) };
}

// Its solution/ files, relative to solution/, without its near misses (they are not its answer).
async function ancestorSolution(db: Db, versionId: string, label: string): Promise<AncestorSolution> {
  const files = filesUnder(await loadBundle(db, versionId), 'solution')
    .filter((f) => !f.path.startsWith(`${NEAR_MISS_DIR}/`))
    .map((f) => ({ ...f, path: f.path.slice('solution/'.length) }));
  return { versionId, label, files };
}

async function storedSequence(db: Db, versionId: string): Promise<Sequence | null> {
  const stored = (await getVersion(db, versionId))?.metadata.sequence;
  if (stored === undefined) return null;
  try {
    return parseSequence(stored);
  } catch {
    return null;
  }
}

// Inserted steps, steps whose scenario or skill was replaced, and steps rewired to other inputs, in
// the candidate's order; null (judge the task as one step) when either sequence is unknown.
async function changedSteps(db: Db, parentVersionId: string, candidateVersionId: string): Promise<string[] | null> {
  const [parent, child] = await Promise.all([storedSequence(db, parentVersionId), storedSequence(db, candidateVersionId)]);
  if (!parent || !child) return null;
  const diff = diffSequences(parent, child);
  const changed = new Set([...diff.inserted, ...diff.replaced.map((r) => r.stepId), ...diff.rewired]);
  return child.steps.map((s) => s.id).filter((id) => changed.has(id));
}
