// An imported Harbor task (no sequence the procedural engine knows) evolves offline, for real:
// two length generations chain procedural steps onto what its oracle writes; a scenario edit of
// it is refused with a failed generation that says Claude is needed.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { readStoredDifficulty } from '../../lib/difficulty/index.ts';
import { importPath } from '../../lib/env/import.ts';
import { loadBundle } from '../../lib/env/store.ts';
import { evolveGeneration, evolveLineage, findOrCreateLineage, lineageReport } from '../../lib/evolution/index.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { ProceduralSynthesiser, SandboxArtifactSource } from '../../lib/synth/procedural/index.ts';
import type { Axis, Sequence } from '../../lib/sequence/types.ts';
import { evolutionMs, limitMs, proceduralTaskBudgets, taskTomlBudgets, validationMs } from '../budgets.ts';
import { context } from './helpers.ts';

const SEED_DIR = 'examples/tasks/access-log-report';
const LOOPS = { maxPlanRounds: 3, maxModifyRounds: 3 };

// Evolving `generations` generations of the one-step imported seed: each first runs its parent's oracle for the
// outputs to chain onto (a build and two trials side by side: the seed's budgets, then the rendered parent's).
function importedEvolutionLimitMs(generations: number, lengthGrows: boolean): number {
  const parents = Array.from({ length: generations }, (_, i) =>
    validationMs(i === 0 ? taskTomlBudgets(readFileSync(`${SEED_DIR}/task.toml`, 'utf8')) : proceduralTaskBudgets(1 + i)),
  );
  return limitMs(...parents, evolutionMs(generations, { steps: 1, loops: LOOPS, lengthGrows }));
}

const sandbox = new DockerSandbox();
const synthesiser = new ProceduralSynthesiser({ artifactSource: new SandboxArtifactSource(sandbox) });
let testDb: TestDb;

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
});
afterAll(() => testDb.cleanup());

async function importedLineage(axis: Axis, seed: number) {
  const [imported] = await importPath(testDb.db, SEED_DIR);
  const lineage = await findOrCreateLineage(testDb.db, imported!.versionId!, {
    axisPolicy: { kind: 'fixed', axis },
    effort: 'low',
    synthesiser: 'procedural',
    seed,
    loops: LOOPS,
  });
  return lineage.row.id;
}

describe('an imported seed offline', () => {
  it(
    'lengthens by two validated generations whose new steps consume the original output',
    async () => {
      const log: string[] = [];
      const lineageId = await importedLineage('length', 41);
      const result = await evolveLineage(context(testDb.db, sandbox, synthesiser, log), lineageId, 2);
      expect(result.validated, log.join('\n')).toHaveLength(2);
      expect(result.failed).toHaveLength(0);

      const report = await lineageReport(testDb.db, lineageId);
      // The opaque seed has no D: stored as unknown, not as the smoothing floor.
      const seedRow = await testDb.db.environmentVersion.findUniqueOrThrow({ where: { id: report.seedVersionId } });
      expect(seedRow.difficultyLength).toBeNull();
      expect(readStoredDifficulty(seedRow)).toMatchObject({ unknown: 'undescribed', undescribedSteps: ['s1'] });
      const settled = report.generations.filter((g) => g.state === 'awaiting-review');
      // Each new step deepens the chain by one; D stays unknown while the imported step is undescribed.
      expect(settled.map((g) => g.difficulty!.depth)).toEqual([2, 3]);
      for (const g of settled) expect(g.difficulty).toMatchObject({ unknown: 'undescribed', label: 'unknown — undescribed', undescribedSteps: ['s1'] });
      for (const g of settled) {
        expect(g.verdicts.oracle).toMatchObject({ verdict: 'passed', reward: 1 });
        expect(g.verdicts['invalid-test']).toMatchObject({ verdict: 'passed', reward: 0 });
        expect(g.verdicts.rubric?.verdict).toBe('passed');
      }
      const [first, second] = settled.map((g) => g.sequence as Sequence);
      expect(first!.steps[0]).toMatchObject({ id: 's1', scenario: 'imported:access-log-report', dependsOn: [] });
      expect(first!.steps[1]!.dependsOn).toEqual(['s1']);
      expect(second!.steps.slice(0, 1)).toEqual(first!.steps.slice(0, 1));
      expect(second!.steps).toHaveLength(3);

      // The seed's files survive: its solution and verifier still run first, its Dockerfile is a prefix.
      const seedBundle = await loadBundle(testDb.db, report.seedVersionId);
      const child = await loadBundle(testDb.db, settled[1]!.versionId!);
      const file = (bundle: typeof child, path: string) => bundle.files.find((f) => f.path === path)!.content.toString('utf8');
      expect(file(child, 'tests/seed_test.sh')).toBe(file(seedBundle, 'tests/test.sh'));
      expect(file(child, 'solution/seed_solve.sh')).toBe(file(seedBundle, 'solution/solve.sh'));
      expect(file(child, 'environment/Dockerfile').startsWith(file(seedBundle, 'environment/Dockerfile'))).toBe(true);
      expect(file(child, 'instruction.md')).toContain('/app/report.json');
    },
    importedEvolutionLimitMs(2, true),
  );

  it(
    'records a scenario edit of the imported step as a failed generation that says Claude is needed',
    async () => {
      const lineageId = await importedLineage('scenario', 42);
      const generation = await evolveGeneration(context(testDb.db, sandbox, synthesiser), lineageId);
      expect(generation.state).toBe('failed');
      expect(generation.error).toMatch(/scenario edits of the imported step s1 need Claude.*--synth anthropic/);
      expect(await testDb.db.attempt.count({ where: { generationId: generation.id } })).toBe(0);
    },
    importedEvolutionLimitMs(1, false),
  );
});
