// The procedural synthesiser's output validated for real in Docker: every layout and noise with
// every skill it reaches, every delivery, dependent chains, the shipped seeds, a modifier residual, and injected faults
// caught by the validators. Bundles are validated one at a time; each validation runs its oracle
// and nop trials in parallel, so two containers run at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import type { TaskBundle } from '../../lib/bundle/bundle.ts';
import { NEAR_MISS_DIR } from '../../lib/env/validate-bundle.ts';
import { METADATA_SIDECAR } from '../../lib/env/content-hash.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import type { Sequence } from '../../lib/sequence/types.ts';
import { applyResidual } from '../../lib/env/residual.ts';
import { ProceduralSynthesiser, renderEnvironment } from '../../lib/synth/procedural/index.ts';
import { BASE_SKILL_NAMES as CATALOGUE_SKILLS, DOMAIN_NAMES, misfit, UPSTREAM_SKILL_NAMES } from '../../lib/synth/procedural/catalogue.ts';
import { composeScenario, composeSkill, LAYOUTS, NOISES } from '../../lib/difficulty/scenario-names.ts';
import { renderSeedTask, SEED_TASKS } from '../../lib/synth/procedural/seeds.ts';
import { validateEnvironment } from '../../lib/validate/validate-environment.ts';

let testDb: TestDb;
const sandbox = new DockerSandbox();

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
});
afterAll(() => testDb.cleanup());

async function validate(bundle: TaskBundle) {
  const versionId = await storeBundle(testDb.db, bundle, { source: 'import' });
  const runs = await validateEnvironment({ db: testDb.db, sandbox, versionId });
  return Object.fromEntries(runs.map((r) => [r.kind, r]));
}

// The matrix bundles hold dozens of steps, and each near miss is a complete solution of all of
// them: the near-miss validator's trial grows with steps × near misses. Here they are validated for
// what this file is about (the oracle scores 1, the empty solution 0) without their near misses,
// which test/synth/procedural-near-misses.test.ts runs for every skill in every domain.
const withoutNearMisses = (bundle: TaskBundle): TaskBundle => ({ ...bundle, files: bundle.files.filter((f) => !f.path.startsWith(`${NEAR_MISS_DIR}/`)) });

async function expectValid(bundle: TaskBundle): Promise<void> {
  const byKind = await validate(bundle);
  expect(byKind.oracle, `${bundle.name} oracle:\n${byKind.oracle?.verifierLog}\n${byKind.oracle?.agentLog}`).toMatchObject({ verdict: 'passed', reward: 1 });
  expect(byKind['invalid-test'], `${bundle.name} nop`).toMatchObject({ verdict: 'passed', reward: 0 });
}

const chain: Sequence = {
  steps: [
    { id: 's1', scenario: 'mail-spool', skill: 'sort-uniq-count', dependsOn: [] },
    { id: 's2', scenario: 'ci-artifacts', skill: 'tar-archive', dependsOn: ['s1'] },
    { id: 's3', scenario: 'library-catalog', skill: 'git-history', dependsOn: ['s2'] },
    { id: 's4', scenario: 'weather-observations', skill: 'python-script', dependsOn: ['s1', 's3'] },
  ],
};

// Skills over their own data; those computing with an earlier answer run in the chain made for them.
const SKILL_SPREAD = 5;
const BASE_SKILL_NAMES = CATALOGUE_SKILLS.filter((skill) => !UPSTREAM_SKILL_NAMES.includes(skill));

describe('procedural environments validate in Docker', () => {
  // Each domain with every skill (the reference scores 1, the empty solution 0, every near miss 0)
  // is test/synth/procedural-near-misses.test.ts: one trial per domain proves all three.

  // Composed scenarios: one bundle per layout × noise, each with every SKILL_SPREAD-th skill (turning
  // with the bundle, so every skill meets several layouts and noises across the bundles) over
  // domains in turn (so every domain's file does too).
  LAYOUTS.forEach((layout, l) =>
    NOISES.forEach((noise, n) => {
      if (layout === 'native' && noise === 'clean') return;
      it(`layout ${layout} with noise ${noise} under every ${SKILL_SPREAD}th skill it reaches`, async () => {
        const pairs = BASE_SKILL_NAMES.filter((_, i) => (i + l * NOISES.length + n) % SKILL_SPREAD === 0).map(
          (skill, i) => [composeScenario({ domain: DOMAIN_NAMES[(i + l * 5 + n) % DOMAIN_NAMES.length]!, layout, noise }), skill] as const,
        );
        const fitting = pairs.filter(([scenario, skill]) => misfit(scenario, skill) === null);
        const sequence = { steps: fitting.map(([scenario, skill], i) => ({ id: `s${i + 1}`, scenario, skill, dependsOn: [] })) };
        await expectValid(withoutNearMisses(renderEnvironment(sequence, { seed: 2025, name: `matrix-${layout}-${noise}` })));
      });
    }),
  );

  // Skills with a delivery parameter: every skill that can take it, in a chain so a delivered
  // step also selects its data by an upstream answer.
  for (const delivery of ['gz', 'b64'] as const) {
    it(`every skill delivered ${delivery}`, async () => {
      const skills = BASE_SKILL_NAMES.map((base) => composeSkill({ base, delivery })).filter((skill) => misfit('web-access-log', skill) === null);
      const sequence = {
        steps: skills.map((skill, i) => ({ id: `s${i + 1}`, scenario: DOMAIN_NAMES[i % DOMAIN_NAMES.length]!, skill, dependsOn: i === 0 ? [] : [`s${i}`] })),
      };
      await expectValid(withoutNearMisses(renderEnvironment(sequence, { seed: 2026, name: `matrix-${delivery}` })));
    });
  }

  it('a chain of steps computing with upstream answers, delivered plain, gz and b64', async () => {
    const steps = [
      { id: 's1', scenario: 'http-api-traces', skill: 'max-concurrency', dependsOn: [] },
      { id: 's2', scenario: 'inventory-csv', skill: 'above-upstream', dependsOn: ['s1'] },
      { id: 's3', scenario: 'weather-observations+csv', skill: 'above-upstream+gz', dependsOn: ['s2'] },
      { id: 's4', scenario: 'mail-spool+crlf', skill: 'above-upstream+b64', dependsOn: ['s3'] },
    ];
    await expectValid(renderEnvironment({ steps }, { seed: 2027, name: 'upstream-chain' }));
  });

  it('a four-step dependent chain', async () => {
    await expectValid(renderEnvironment(chain, { seed: 77, name: 'chain-of-four' }));
  });

  for (const task of SEED_TASKS) {
    it(`the shipped seed ${task.name}`, async () => {
      const bundle = renderSeedTask(task);
      await expectValid({ ...bundle, files: bundle.files.filter((f) => f.path !== METADATA_SIDECAR) });
    });
  }

  it("the modifier's residual applied to a seed (length, high effort)", async () => {
    const synth = new ProceduralSynthesiser();
    const seed = SEED_TASKS[0]!;
    const parent = { versionId: 'seed', bundle: renderEnvironment(seed.sequence, { seed: seed.seed, name: seed.name }), sequence: seed.sequence };
    const plan = await synth.propose({ parent, axis: 'length', effort: 'high', seed: 5, rubric: [], feedback: [], minGain: 0.05 });
    const { residual } = await synth.modify({ parent, plan, seed: 5, attempt: 1, feedback: [] });
    expect(plan.child.steps.length).toBeGreaterThanOrEqual(4);
    await expectValid(applyResidual(parent.bundle, residual));
  });

  it('catches injected faults: a wrong solution fails the oracle, lenient tests fail invalid-test', async () => {
    const wrong = await validate(renderEnvironment(chain, { seed: 77, name: 'chain-wrong', fault: 'wrong-solution' }));
    expect(wrong.oracle).toMatchObject({ verdict: 'failed', reward: 0 });
    const lenient = await validate(renderEnvironment(chain, { seed: 77, name: 'chain-lenient', fault: 'lenient-tests' }));
    expect(lenient['invalid-test']).toMatchObject({ verdict: 'failed', reward: 1 });
  });
});
