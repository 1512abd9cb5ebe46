// Describing an imported seed: offline, an imported task is one opaque step charged
// the smoothing prior, so every imported seed had the same D whatever it contained. A reviewer
// who has read the task can set its scenario–skill sequence from the reference names; the seed
// then has a real D offline, and lengthening chains onto it as before (its described steps are
// the original task's, never rewritten by the procedural engine). The change is kept in the
// version's metadata with a revision number and recorded in the audit log with before and after.
import { recordAudit, type AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { computeDifficulty, REFERENCE_TABLE, tableKnows, type Difficulty, readStoredDifficulty } from '../difficulty/index.ts';
import { loadBundle } from '../env/index.ts';
import { structuralViolations } from '../sequence/index.ts';
import type { Sequence } from '../sequence/index.ts';
import { readProceduralMetadata } from '../synth/index.ts';
import { RefusedError } from '../errors/index.ts';

export class SequenceRefused extends RefusedError {
  constructor(message: string) {
    super(message, { code: 'sequence_refused' });
  }
}

export interface DescribedSequence {
  versionId: string;
  sequence: Sequence;
  revision: number;
  difficulty: Difficulty;
}

/**
 * `scenario:skill,scenario:skill,…` → a chain of steps s1, s2, … each consuming the one before
 * (the order an agent would work through the task). Names must be the reference table's.
 */
export function parseSequenceSpec(spec: string): Sequence {
  const pairs = spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (pairs.length === 0) throw new SequenceRefused('give at least one scenario:skill pair');
  return {
    steps: pairs.map((pair, i) => {
      const [scenario, skill, extra] = pair.split(':').map((x) => x.trim());
      if (!scenario || !skill || extra !== undefined) throw new SequenceRefused(`"${pair}" is not scenario:skill`);
      return { id: `s${i + 1}`, scenario, skill, dependsOn: i === 0 ? [] : [`s${i}`], origin: 'imported' as const };
    }),
  };
}

export async function describeImportedSeed(db: Db, versionId: string, described: Sequence, actor: AuditActor): Promise<DescribedSequence> {
  const version = await db.environmentVersion.findUnique({ where: { id: versionId } });
  if (!version) throw new SequenceRefused(`environment version ${versionId} not found`);
  if (version.source !== 'import') throw new SequenceRefused(`${version.name} was made by evolution; its sequence is the one its plan and files carry`);
  if (readProceduralMetadata(await loadBundle(db, versionId))) {
    throw new SequenceRefused(`${version.name} was rendered by the procedural synthesiser; its sequence is in its task.toml`);
  }
  const evolved = await db.generation.count({ where: { parentVersionId: versionId } });
  if (evolved > 0)
    throw new SequenceRefused(`${evolved} generation(s) already evolved from ${version.name} under its old sequence; describe a seed before evolving it`);
  const problems = [
    ...structuralViolations(described),
    ...described.steps.flatMap((s) => [
      ...(tableKnows(REFERENCE_TABLE, 'scenario', s.scenario) ? [] : [`step ${s.id}: "${s.scenario}" is not a reference scenario`]),
      ...(tableKnows(REFERENCE_TABLE, 'skill', s.skill) ? [] : [`step ${s.id}: "${s.skill}" is not a reference skill`]),
    ]),
  ];
  if (problems.length > 0) throw new SequenceRefused(problems.join('; '));
  const sequence: Sequence = { steps: described.steps.map((s) => ({ ...s, origin: 'imported' as const })) };

  const metadata = JSON.parse(version.metadata) as Record<string, unknown>;
  const revision = (typeof metadata.sequenceRevision === 'number' ? metadata.sequenceRevision : 0) + 1;
  const next = { ...metadata, sequence, sequenceRevision: revision, sequenceSetBy: actor.email, sequenceSetAt: new Date().toISOString() };
  return db.$transaction(async (tx) => {
    await tx.environmentVersion.update({ where: { id: versionId }, data: { metadata: JSON.stringify(next) } });
    const difficulty = await computeDifficulty(tx as unknown as Db, versionId, sequence);
    await recordAudit(tx, {
      actor,
      action: 'environment.sequence',
      subjectType: 'environment-version',
      subjectId: versionId,
      before: { sequence: metadata.sequence ?? null, revision: revision - 1, difficulty: readStoredDifficulty(version) },
      after: {
        sequence,
        revision,
        difficulty: {
          length: difficulty.length,
          depth: difficulty.depth,
          scenarioNovelty: difficulty.scenarioNovelty,
          skillRarity: difficulty.skillRarity,
          total: difficulty.total,
          model: difficulty.model,
        },
      },
    });
    return { versionId, sequence, revision, difficulty };
  });
}
