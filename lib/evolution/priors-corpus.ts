// The corpus `envolve priors fit` learns from: the environments under the given paths (a lab's seed
// pool), each with the sequence read off its built files by the procedural synthesiser, and, when a
// policy is named, the mean turns its completed rollouts under that policy took. Tasks whose
// sequence is opaque (an imported task nobody described) teach nothing about names and are listed
// as skipped.
import type { Db } from '../db/index.ts';
import type { CorpusEnvironment } from '../difficulty/index.ts';
import { contentHash, readTasksAt } from '../env/index.ts';
import { isImportedStep, ProceduralSynthesiser } from '../synth/index.ts';

export interface PriorsCorpus {
  environments: CorpusEnvironment[];
  skipped: Array<{ name: string; reason: string }>;
}

export async function readPriorsCorpus(db: Db, paths: string[], turnsPolicy?: string): Promise<PriorsCorpus> {
  const synthesiser = new ProceduralSynthesiser();
  const environments: CorpusEnvironment[] = [];
  const skipped: PriorsCorpus['skipped'] = [];
  for (const path of paths) {
    for (const bundle of await readTasksAt(path)) {
      const sequence = await synthesiser.extractSequence(bundle);
      if (sequence.steps.every(isImportedStep)) {
        skipped.push({ name: bundle.name, reason: 'no described sequence (an imported task is one opaque step)' });
        continue;
      }
      const versionId = contentHash(bundle);
      const observedTurns = turnsPolicy ? await meanTurns(db, versionId, turnsPolicy) : undefined;
      environments.push({
        name: bundle.name,
        versionId,
        sequence: { steps: sequence.steps.filter((s) => !isImportedStep(s)) },
        ...(observedTurns ? { observedTurns } : {}),
      });
    }
  }
  return { environments, skipped };
}

async function meanTurns(db: Db, versionId: string, policy: string): Promise<CorpusEnvironment['observedTurns']> {
  const agg = await db.rollout.aggregate({ where: { versionId, policy, status: 'completed' }, _avg: { turns: true }, _count: true });
  return agg._count > 0 && agg._avg.turns !== null ? { mean: agg._avg.turns, rollouts: agg._count, policy } : undefined;
}
