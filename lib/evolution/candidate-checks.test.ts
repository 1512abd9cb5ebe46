// The built-candidate check reads the built files: a procedural candidate whose
// task.toml claims a harder sequence than its files hold is measured by its files and refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { REFERENCE_TABLE } from '../difficulty/reference-priors.ts';
import type { TaskBundle } from '../bundle/bundle.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { replaceField } from '../sequence/edit.ts';
import { describeEdit } from '../sequence/diff.ts';
import type { Sequence } from '../sequence/types.ts';
import { ProceduralSynthesiser, renderEnvironment } from '../synth/procedural/index.ts';
import { builtDifficulty } from './candidate-checks.ts';
import type { EvolutionContext } from './context.ts';

const parent: Sequence = {
  steps: [
    { id: 's1', scenario: 'web-access-log', skill: 'sort-uniq-count', dependsOn: [] },
    { id: 's2', scenario: 'auth-syslog', skill: 'awk-fields', dependsOn: ['s1'] },
  ],
};
const claimed = replaceField(parent, ['s2'], 'scenario', ['genomics-fasta']);
const plan = { edit: describeEdit(parent, claimed, 'scenario', 'low'), child: claimed, rationale: 'planted' };

// The parent's own files under a task.toml whose metadata names the harder child.
function planted(): TaskBundle {
  const bundle = renderEnvironment(parent, { seed: 7, name: 'planted' });
  return {
    ...bundle,
    files: bundle.files.map((f) =>
      f.path === 'task.toml'
        ? { ...f, content: Buffer.from(f.content.toString('utf8').replace(/^sequence = .*$/m, `sequence = ${JSON.stringify(JSON.stringify(claimed))}`)) }
        : f,
    ),
  };
}

let t: TestDb;
let ctx: EvolutionContext;
beforeAll(async () => {
  t = await createTestDb();
  ctx = { db: t.db, sandbox: {} as Sandbox, synthesiser: new ProceduralSynthesiser(), progress: () => {} };
});
afterAll(() => t.cleanup());

describe('the built-candidate check', () => {
  it('refuses a candidate whose metadata claims more than its files hold, measuring the files', async () => {
    const bundle = planted();
    expect(bundle.files.find((f) => f.path === 'task.toml')!.content.toString()).toContain('genomics-fasta');
    const built = await builtDifficulty(ctx, bundle, plan, parent, 0.05, REFERENCE_TABLE);
    expect(built.sequence).toEqual(parent);
    expect(built.problems).toHaveLength(1);
    expect(built.problems[0]).toMatch(
      /^rubric: monotone-difficulty: the sequence extracted from the built candidate has D [\d.]+ .*the approved plan promised D [\d.]+/,
    );
  });

  it('accepts the honest rendering of the same plan', async () => {
    const built = await builtDifficulty(ctx, renderEnvironment(claimed, { seed: 7, name: 'honest' }), plan, parent, 0.05, REFERENCE_TABLE);
    expect(built.sequence).toEqual(claimed);
    expect(built.problems).toEqual([]);
  });

  it('refuses files no catalogue names render (a data file edited by hand)', async () => {
    const bundle = renderEnvironment(claimed, { seed: 7, name: 'edited' });
    const edited = {
      ...bundle,
      files: bundle.files.map((f) => (f.path.startsWith('environment/data/s2/') ? { ...f, content: Buffer.concat([f.content, Buffer.from('extra\n')]) } : f)),
    };
    await expect(builtDifficulty(ctx, edited, plan, parent, 0.05, REFERENCE_TABLE)).rejects.toThrow(
      /the built files do not hold a catalogue sequence: the data files of step s2/,
    );
  });
});
