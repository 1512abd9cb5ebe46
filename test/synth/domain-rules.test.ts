// Domain rules validated for real in Docker: one bundle whose steps read every domain's file through
// its rule, two steps a domain, each with a skill that computes differently (a sum, a top count, a
// time span, a threshold count, a percentile …), each skill over several domains. The reference
// solution scores 1 and the empty one 0, and the near-miss validator runs every step's
// parent-question near miss (the same computation over every row, the rule ignored) as a complete
// solution: each must score 0 and fail its own step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { NEAR_MISS_DIR } from '../../lib/env/index.ts';
import { type BundleFile, type TaskBundle } from '../../lib/bundle/index.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { renderEnvironmentWithSteps } from '../../lib/synth/procedural/index.ts';
import { DOMAIN_NAMES } from '../../lib/synth/procedural/catalogue.ts';
import { nearMissPath } from '../../lib/synth/procedural/near-misses.ts';
import type { RenderedStep } from '../../lib/synth/procedural/render-step.ts';
import { validateEnvironment } from '../../lib/validate/validate-environment.ts';
import { candidateValidationMs, limitMs, proceduralTaskBudgets } from '../budgets.ts';

const SKILLS = ['awk-fields', 'sort-uniq-count', 'date-arithmetic', 'config-parse', 'python-script', 'grep-regex', 'tar-archive', 'git-history'];

// Domain i gets skills i and i+3 (mod 8): every skill meets four domains, and every domain two
// computations; every fourth step reads the domain's CSV export (the rule's column) instead.
const sequence = {
  steps: DOMAIN_NAMES.flatMap((domain, i) =>
    [SKILLS[i % SKILLS.length]!, SKILLS[(i + 3) % SKILLS.length]!].map((skill, j) => ({
      id: `s${2 * i + j + 1}`,
      scenario: (2 * i + j) % 4 === 3 ? `${domain}+csv` : domain,
      skill,
      dependsOn: [],
    })),
  ),
};
const budgets = proceduralTaskBudgets(sequence.steps.length);

let testDb: TestDb;
const sandbox = new DockerSandbox();

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
});
afterAll(() => testDb?.cleanup());

// The parent-question near miss of every step, each a complete solution: the reference solve.sh
// with that one step's fragment swapped for it. They replace the skill near misses the bundle
// carries (test/synth/procedural-near-misses.test.ts proves those).
function withParentQuestions(bundle: TaskBundle, steps: RenderedStep[]): TaskBundle {
  const solve = bundle.files.find((f) => f.path === 'solution/solve.sh')!.content.toString('utf8');
  const misses: BundleFile[] = steps.map((step) => {
    const miss = step.parentQuestion!;
    const at = solve.indexOf(step.solve);
    if (at < 0 || solve.indexOf(step.solve, at + 1) >= 0) throw new Error(`step ${step.step.id}'s fragment is not in solve.sh exactly once`);
    const content = solve.slice(0, at) + miss.solve + solve.slice(at + step.solve.length);
    return { path: nearMissPath(step.step.id, miss.name), content: Buffer.from(content, 'utf8'), executable: true };
  });
  return { ...bundle, files: [...bundle.files.filter((f) => !f.path.startsWith(`${NEAR_MISS_DIR}/`)), ...misses] };
}

describe('domain rules in Docker', () => {
  it(
    `every domain's reference solution passes, and every step's parent-question near miss fails its step (${sequence.steps.length} steps, ${DOMAIN_NAMES.length} domains)`,
    async () => {
      const { bundle, steps } = renderEnvironmentWithSteps(sequence, { seed: 4343, name: 'domain-rules' });
      expect(
        steps.filter((s) => !s.parentQuestion).map((s) => s.step.id),
        'every step reads its file through the rule',
      ).toEqual([]);
      const versionId = await storeBundle(testDb.db, withParentQuestions(bundle, steps), { source: 'import' });
      const runs = Object.fromEntries((await validateEnvironment({ db: testDb.db, sandbox, versionId })).map((r) => [r.kind, r]));

      expect(runs.oracle, `oracle:\n${runs.oracle?.verifierLog}\n${runs.oracle?.agentLog}`).toMatchObject({ verdict: 'passed', reward: 1 });
      expect(runs['invalid-test'], 'nop').toMatchObject({ verdict: 'passed', reward: 0 });
      const nearMiss = runs['near-miss'];
      expect(nearMiss, `near misses:\n${nearMiss?.verifierLog}`).toMatchObject({ verdict: 'passed' });
      const log = nearMiss!.verifierLog ?? '';
      for (const step of sequence.steps) expect(log, `${step.id} (${step.skill} over ${step.scenario}):\n${log}`).toContain(`step ${step.id} failed`);
    },
    limitMs(candidateValidationMs(budgets, { nearMisses: sequence.steps.length })),
  );
});
