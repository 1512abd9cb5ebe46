// The proof that every near miss the procedural synthesiser writes scores 0, run for real in
// Docker: one bundle per domain (and three with a layout or noise) holding one step for each of
// its skills, and dependent chains. One trial per bundle: its agent phase runs the reference
// solution, then each batch script from an empty /app/out, stashing /app/out after each; its
// verifier phase runs the bundle's own tests/test.sh on every stash, printing each step's result,
// then on the reference outputs. In the per-domain bundles the steps are independent (each reads
// its own data and writes its own answer), so one batch script runs the k-th near miss of every
// step at once, each step's fragment in its own subshell: a near miss scores 0 exactly when its
// step fails, which that batch's per-step results say, and the steps still solved the reference's
// way must pass beside them; with the reference scoring 1 and the empty solution 0, this is also
// the oracle and invalid-test proof of every skill in every domain. A chain runs its full solution/near-misses/*.sh files one by one,
// whose mistakes also reach the steps after them.
import { beforeAll, describe, expect, it } from 'vitest';
import type { BundleFile, TaskBundle } from '../../lib/bundle/bundle.ts';
import { NEAR_MISS_DIR } from '../../lib/env/validate-bundle.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { parseTaskConfig } from '../../lib/bundle/task-config.ts';
import type { Sequence } from '../../lib/sequence/types.ts';
import { renderEnvironmentWithSteps } from '../../lib/synth/procedural/index.ts';
import { BASE_SKILL_NAMES, DOMAIN_NAMES, misfit, UPSTREAM_SKILL_NAMES } from '../../lib/synth/procedural/catalogue.ts';
import type { RenderedStep } from '../../lib/synth/procedural/render-step.ts';
import { trialRequest } from '../../lib/validate/trial-request.ts';
import { BASE_IMAGE_WAIT_MS, buildMs, limitMs, taskBudgets, trialMs } from '../budgets.ts';

const sandbox = new DockerSandbox();

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
}, BASE_IMAGE_WAIT_MS);

const STASH = '/tmp/envolve-near-misses';
const text = (path: string, content: string, executable = false): BundleFile => ({ path, content: Buffer.from(content, 'utf8'), executable });

// The trial's solution: the reference, then each batch script from an empty /app/out.
const DRIVER = `#!/bin/bash
mkdir -p /app/out ${STASH}
bash /solution/reference.sh > ${STASH}/reference.log 2>&1 || echo "reference failed: $(tail -n 5 ${STASH}/reference.log)"
cp -a /app/out ${STASH}/reference
for f in /solution/batch/*.sh; do
  name=$(basename "$f" .sh)
  rm -rf /app/out/*
  bash "$f" > ${STASH}/$name.log 2>&1 || true
  mkdir -p ${STASH}/out/$name && cp -a /app/out/. ${STASH}/out/$name/
done
rm -rf /app/out/* && cp -a ${STASH}/reference/. /app/out/
`;

// The trial's verifier: the bundle's own tests on every stash (each line of their per-step
// results prefixed with the batch's name), then on the reference outputs.
const VERIFIER = `#!/bin/bash
mkdir -p /logs/verifier
for dir in ${STASH}/out/*/; do
  name=$(basename "$dir")
  rm -rf /app/out && cp -a "$dir" /app/out && rm -f /logs/verifier/reward.txt
  bash /tests/reference-test.sh 2>&1 | sed "s/^/batch $name: /"
  echo "batch $name reward $(cat /logs/verifier/reward.txt 2>/dev/null || echo none)"
done
rm -rf /app/out && cp -a ${STASH}/reference /app/out && rm -f /logs/verifier/reward.txt
bash /tests/reference-test.sh
`;

// The bundle as the trial runs it: `batch` are the near misses to run (name → script).
function batchBundle(bundle: TaskBundle, batch: Map<string, string>): TaskBundle {
  const file = (path: string) => bundle.files.find((f) => f.path === path)!;
  const kept = bundle.files.filter((f) => f.path !== 'solution/solve.sh' && f.path !== 'tests/test.sh');
  return {
    name: bundle.name,
    files: [
      ...kept,
      { ...file('solution/solve.sh'), path: 'solution/reference.sh' },
      { ...file('tests/test.sh'), path: 'tests/reference-test.sh' },
      text('solution/solve.sh', DRIVER, true),
      text('tests/test.sh', VERIFIER, true),
      ...[...batch].map(([name, script]) => text(`solution/batch/${name}.sh`, script, true)),
    ],
  };
}

interface BatchResults {
  reference: number | null;
  rewards: Map<string, string>; // batch name → reward
  steps: Map<string, Map<string, string>>; // batch name → step id → passed/failed
  log: string;
}

async function runBatches(bundle: TaskBundle, batch: Map<string, string>): Promise<BatchResults> {
  const config = parseTaskConfig(bundle.files.find((f) => f.path === 'task.toml')!.content.toString('utf8'));
  if (!config.ok) throw new Error(config.error);
  const build = await sandbox.buildEnvironmentImage(bundle, { timeoutSec: config.config.environment.build_timeout_sec });
  const request = trialRequest(batchBundle(bundle, batch), config.config, build.imageId, { kind: 'oracle' }, { 'envolve.test': 'near-misses' });
  // The verifier runs the task's tests once per batch script and once on the reference outputs.
  const trial = await sandbox.runTrial({ ...request, verifierTimeoutSec: verifierRuns(batch) * request.verifierTimeoutSec });
  const log = trial.verifier?.log ?? '';
  const rewards = new Map([...log.matchAll(/^batch (\S+) reward (\S+)$/gm)].map((m) => [m[1]!, m[2]!] as [string, string]));
  const steps = new Map<string, Map<string, string>>();
  for (const [, name, stepId, status] of log.matchAll(/^batch (\S+): (\S+): (passed|failed)\b/gm)) {
    if (!steps.has(name!)) steps.set(name!, new Map());
    steps.get(name!)!.set(stepId!, status!);
  }
  return { reference: trial.reward, rewards, steps, log: `${trial.agent.log}\n${log}` };
}

function expectReferencePasses(result: BatchResults, batch: Map<string, string>): void {
  expect(result.reference, `the reference solution must still score 1:\n${result.log}`).toBe(1);
  expect([...result.rewards.keys()].sort()).toEqual([...batch.keys()].sort());
}

const verifierRuns = (batch: Map<string, string>): number => batch.size + 1;
const limit = (bundle: TaskBundle, batch: Map<string, string>): number => {
  const budgets = taskBudgets(bundle);
  return limitMs(buildMs(budgets), trialMs({ agentSec: budgets.agentSec, verifierSec: verifierRuns(batch) * budgets.verifierSec }));
};

// Each domain natively, and three with a layout or noise, so near misses meet exports and dirt too.
const SCENARIOS = [...DOMAIN_NAMES, 'sensor-telemetry+comments', 'weather-observations+csv', 'http-api-traces+crlf'];
// Independent steps: a skill computing with an earlier answer is proven in the chains below.
const STANDALONE = BASE_SKILL_NAMES.filter((skill) => !UPSTREAM_SKILL_NAMES.includes(skill));
// Each skill in two of the domains, turning through them, and each dirty scenario with every
// eighth skill: every skill's near misses meet two domains' files and every domain several skills,
// while a trial stays a few steps long. Every near miss of every skill over 25 seeds and two
// scenarios is run in the shell by the unit tier (lib/synth/procedural/near-misses.test.ts).
function skillsOf(scenario: string, index: number): string[] {
  const chosen = STANDALONE.filter((_, j) => (index < DOMAIN_NAMES.length ? (j + index) % DOMAIN_NAMES.length < 2 : (j + index) % 8 === 0));
  return chosen.filter((skill) => misfit(scenario, skill) === null);
}

const NOTHING = 'nothing';

// The k-th batch of a bundle of independent steps: every step with a k-th near miss solved that
// way, every other step the reference's way, each fragment in its own subshell so a near miss that
// fails outright leaves the others to run.
function nearMissBatches(steps: RenderedStep[]): { batch: Map<string, string>; planned: Map<string, Map<string, string>> } {
  const rounds = Math.max(...steps.map((s) => s.nearMisses.length));
  const batch = new Map<string, string>();
  const planned = new Map<string, Map<string, string>>(); // batch → step → the near miss it runs, or '' for the reference
  for (let k = 0; k < rounds; k++) {
    const name = `round${k + 1}`;
    const plan = new Map(steps.map((s) => [s.step.id, s.nearMisses[k]?.name ?? ''] as [string, string]));
    // No `|| true` after the subshell: bash ignores errexit inside a command tested by `||`, and
    // the outer script has no errexit, so one failing subshell stops only its own step.
    const fragments = steps.map((s) => `(\nset -euo pipefail\n${s.nearMisses[k]?.solve ?? s.solve}\n)`);
    batch.set(name, ['#!/bin/bash', 'export LC_ALL=C', 'mkdir -p /app/out', ...fragments, ''].join('\n'));
    planned.set(name, plan);
  }
  // The empty solution (what the invalid-test validator runs): every step must fail.
  batch.set(NOTHING, '#!/bin/bash\nmkdir -p /app/out\n');
  return { batch, planned };
}

// The dependent chains, each proven with its full near-miss files.
const CHAINS: Array<[string, Sequence, number]> = [
  [
    'a dependent chain',
    {
      steps: [
        { id: 's1', scenario: 'mail-spool', skill: 'sort-uniq-count', dependsOn: [] },
        { id: 's2', scenario: 'ci-artifacts', skill: 'tar-archive', dependsOn: ['s1'] },
        { id: 's3', scenario: 'payments-ledger+csv', skill: 'config-parse', dependsOn: ['s2'] },
        { id: 's4', scenario: 'weather-observations', skill: 'python-script+gz', dependsOn: ['s1', 's3'] },
      ],
    },
    77,
  ],
  // Steps computing with the integer the step before wrote (a threshold), in a domain with two
  // decimals and one with a comment-noised, gzip-delivered file, then a step picking its folder by such a count.
  [
    'a chain computing with upstream answers',
    {
      steps: [
        { id: 's1', scenario: 'web-access-log', skill: 'grep-regex', dependsOn: [] },
        { id: 's2', scenario: 'payments-ledger', skill: 'above-upstream', dependsOn: ['s1'] },
        { id: 's3', scenario: 'sensor-telemetry+comments', skill: 'above-upstream+gz', dependsOn: ['s2'] },
        { id: 's4', scenario: 'dns-zone', skill: 'date-arithmetic', dependsOn: ['s3'] },
      ],
    },
    78,
  ],
  // The threshold step in every domain, each computing with the count the one before wrote.
  [
    'a chain computing with upstream answers through every domain',
    {
      steps: [
        { id: 's1', scenario: 'auth-syslog', skill: 'grep-regex', dependsOn: [] },
        ...DOMAIN_NAMES.map((scenario, i) => ({ id: `s${i + 2}`, scenario, skill: 'above-upstream', dependsOn: [`s${i + 1}`] })),
      ],
    },
    79,
  ],
];

describe('every near miss scores 0 in Docker', () => {
  it('meets every skill in two domains', () => {
    for (const skill of STANDALONE)
      expect(
        DOMAIN_NAMES.filter((domain, i) => skillsOf(domain, i).includes(skill)),
        skill,
      ).toHaveLength(2);
  });

  SCENARIOS.forEach((scenario, index) => {
    const skills = skillsOf(scenario, index);
    const sequence: Sequence = { steps: skills.map((skill, i) => ({ id: `s${i + 1}`, scenario, skill, dependsOn: [] })) };
    const { bundle, steps } = renderEnvironmentWithSteps(sequence, { seed: 2024, name: `near-misses-${scenario}` });
    const { batch, planned } = nearMissBatches(steps);
    const count = steps.reduce((n, s) => n + s.nearMisses.length, 0);
    it(
      `${scenario}: the ${count} near misses of its ${steps.length} skills`,
      async () => {
        expect(count).toBeGreaterThanOrEqual(2 * steps.length);
        const result = await runBatches(bundle, batch);
        expectReferencePasses(result, batch);
        const wrong: string[] = [];
        if (result.rewards.get(NOTHING) !== '0') wrong.push(`the empty solution scores ${result.rewards.get(NOTHING)}, not 0`);
        for (const stepId of steps.map((s) => s.step.id))
          if (result.steps.get(NOTHING)?.get(stepId) !== 'failed') wrong.push(`${stepId} passes with no solution at all`);
        for (const [name, plan] of planned)
          for (const [stepId, mistake] of plan) {
            const status = result.steps.get(name)?.get(stepId);
            if (mistake && status !== 'failed') wrong.push(`${stepId}.${mistake} (${name}): ${status ?? 'no result'}, not failed`);
            if (!mistake && status !== 'passed') wrong.push(`${stepId} solved the reference's way beside the near misses (${name}): ${status ?? 'no result'}`);
          }
        expect(wrong, `near misses that did not fail their step:\n${result.log}`).toEqual([]);
      },
      limit(bundle, batch),
    );
  });

  for (const [title, chain, seed] of CHAINS) chainCase(title, chain, seed);
});

// A chain's near-miss files, each a full solution whose one mistake also reaches the steps after it.
function chainCase(title: string, chain: Sequence, seed: number): void {
  const chained = renderEnvironmentWithSteps(chain, { seed, name: 'near-misses-chain' }).bundle;
  const chainBatch = new Map(
    chained.files
      .filter((f) => f.path.startsWith(`${NEAR_MISS_DIR}/`))
      .map((f) => [f.path.slice(NEAR_MISS_DIR.length + 1, -'.sh'.length), f.content.toString('utf8')] as [string, string]),
  );
  it(
    `${title}: the full solution/near-misses files`,
    async () => {
      const batch = chainBatch;
      expect(batch.size).toBeGreaterThanOrEqual(2 * chain.steps.length);
      const result = await runBatches(chained, batch);
      expectReferencePasses(result, batch);
      const passed = [...result.rewards].filter(([, reward]) => reward !== '0');
      expect(passed, `near misses that did not score 0:\n${result.log}`).toEqual([]);
    },
    limit(chained, chainBatch),
  );
}
