// What the counter-check is given: the ancestors' reference solutions, nearest first back to the
// seed, read off the lineage's generations, and the steps the candidate changed or added.
import { describe, expect } from 'vitest';
import { fileDbTest } from '../../test/fixtures/test.ts';
import type { Db } from '../db/client.ts';
import { storeBundle } from '../env/store.ts';
import type { Sequence } from '../sequence/index.ts';
import { GenerationState } from '../states/states.ts';
import { solutionCheckInput } from './ancestry.ts';

const step = (id: string, skill: string, dependsOn: string[] = []) => ({ id, scenario: 'web-access-log', skill, dependsOn });

async function version(db: Db, name: string, sequence: Sequence | null, extra: Record<string, string> = {}): Promise<string> {
  const required = {
    'task.toml': '',
    'instruction.md': `Task ${name}.\n`,
    'environment/Dockerfile': 'FROM envolve/base:bookworm\n',
    'tests/test.sh': 'exit 0\n',
  };
  const files = Object.entries({ ...required, 'solution/solve.sh': `echo ${name}\n`, ...extra }).map(([path, content]) => ({
    path,
    content: Buffer.from(content),
    executable: path.endsWith('.sh'),
  }));
  return storeBundle(db, { name, files }, { source: 'import', metadata: sequence ? { kind: 'generation', sequence } : {} });
}

describe('solutionCheckInput', () => {
  fileDbTest('lists the parent, its ancestors and the seed, and the steps the candidate changed or added', async ({ db }) => {
    const seed = await version(db, 'seed', { steps: [step('s1', 'wc-count')] });
    const lineage = await db.lineage.create({
      data: { name: 'l', seedVersionId: seed, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1 },
    });
    const g1 = await version(db, 'g1', { steps: [step('s1', 'wc-count'), step('s2', 'awk-fields', ['s1'])] }, { 'solution/near-misses/s2.x.sh': 'x\n' });
    const g2 = await version(db, 'g2', { steps: [step('s1', 'wc-count'), step('s2', 'awk-fields', ['s1']), step('s3', 'grep-regex', ['s2'])] });
    const candidate = await version(db, 'g3', {
      steps: [step('s1', 'sort-uniq-count'), step('s2', 'awk-fields', ['s1']), step('s3', 'grep-regex', ['s1']), step('s4', 'cut-columns', ['s3'])],
    });
    const generation = (number: number, parentVersionId: string, versionId: string | null, state: GenerationState) =>
      db.generation.create({ data: { lineageId: lineage.id, number, parentVersionId, versionId, axis: 'length', effort: 'low', state } });
    await generation(1, seed, g1, GenerationState.approved);
    await generation(2, g1, g2, GenerationState.awaitingReview);
    await generation(3, g2, null, GenerationState.modifying);

    const input = await solutionCheckInput(db, lineage.id, g2, candidate);
    expect(input.ancestors.map((a) => [a.versionId, a.label])).toEqual([
      [g2, 'generation 2'],
      [g1, 'generation 1'],
      [seed, 'the seed'],
    ]);
    // Relative to solution/, without the ancestor's near misses.
    expect(input.ancestors[1]!.files.map((f) => f.path)).toEqual(['solve.sh']);
    expect(input.ancestors[2]!.files[0]!.content.toString()).toBe('echo seed\n');
    // s1 replaced, s3 rewired, s4 inserted; s2 as it was.
    expect(input.changedSteps).toEqual(['s1', 's3', 's4']);
  });

  fileDbTest('judges the task as one step when a sequence is unknown', async ({ db }) => {
    const seed = await version(db, 'imported', null);
    const lineage = await db.lineage.create({
      data: { name: 'l2', seedVersionId: seed, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'anthropic', seed: 1 },
    });
    const candidate = await version(db, 'child', { steps: [step('s1', 'wc-count')] });
    const input = await solutionCheckInput(db, lineage.id, seed, candidate);
    expect(input).toMatchObject({ changedSteps: null, ancestors: [{ versionId: seed, label: 'the seed' }] });
  });
});
