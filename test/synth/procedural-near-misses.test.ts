// The skills that carry near misses, proven in Docker: one bundle per domain (and per noise, for
// the skills that ship their own export files) holding one step per such skill. The reference
// solution scores 1 and doing nothing 0; then, per near miss k, an agent runs the solution with
// every step's fragment swapped for that step's k-th near miss, and the verifier must fail
// exactly the swapped steps (its per-step lines), so each typical wrong solution is rejected.
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleFile, parseTaskConfig, type TaskBundle } from '../../lib/env/index.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import type { Step } from '../../lib/sequence/types.ts';
import { trialRequest } from '../../lib/validate/trial-request.ts';
import { misfit, scenarioNamed, skillNamed } from '../../lib/synth/procedural/catalogue.ts';
import { renderEnvironmentWithSteps } from '../../lib/synth/procedural/render.ts';
import { createRng, hashSeed } from '../../lib/synth/procedural/rng.ts';
import type { NearMiss, StepParams } from '../../lib/synth/procedural/skill.ts';
import { SKILLS } from '../../lib/synth/procedural/skills/index.ts';
import { buildMs, limitMs, proceduralTaskBudgets, trialMs } from '../budgets.ts';

const sandbox = new DockerSandbox();
beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
});

const WITH_NEAR_MISSES = SKILLS.filter((s) => s.nearMisses).map((s) => s.name);
const MOST_NEAR_MISSES = 3;

// The selectors render-step draws for a first-built step (variant 0), so a near miss is asked
// the same question as the reference fragment it replaces.
function paramsOf(step: Step, seed: number): StepParams {
  const scenario = scenarioNamed(step.scenario);
  const rng = createRng(hashSeed(seed, step.id, step.scenario, step.skill));
  const keys = scenario.makeKeys(rng);
  return { category: rng.pick(scenario.categories), key: rng.pick(keys), batch: rng.int(2, 3) };
}

function nearMissesOf(step: Step, seed: number): { reference: string; misses: NearMiss[] } {
  const scenario = scenarioNamed(step.scenario);
  const { skill } = skillNamed(step.skill);
  const params = paramsOf(step, seed);
  return { reference: skill.solve(scenario, params), misses: skill.nearMisses?.(scenario, params) ?? [] };
}

// The solution with each step's fragment run in its own subshell (a near miss that fails must not
// stop the steps after it) and, where the step has a k-th near miss, that near miss in its place.
function swappedSolution(steps: { step: Step; solve: string }[], seed: number, k: number): { script: string; swapped: Set<string> } {
  const swapped = new Set<string>();
  const fragments = steps.map(({ step, solve }) => {
    const { reference, misses } = nearMissesOf(step, seed);
    expect(solve.endsWith(reference), `${step.id}: the rendered fragment ends with the skill's solve`).toBe(true);
    const miss = misses[k];
    if (miss) swapped.add(step.id);
    return `(\n${miss ? solve.slice(0, solve.length - reference.length) + miss.solve : solve}\n) || true`;
  });
  return { script: ['set -uo pipefail', 'export LC_ALL=C', 'mkdir -p /app/out', ...fragments].join('\n\n'), swapped };
}

function stepVerdicts(log: string): Map<string, string> {
  return new Map([...log.matchAll(/^(s\d+): (passed|failed)/gm)].map((m) => [m[1]!, m[2]!]));
}

const CASES: { name: string; scenario: string; seed: number }[] = [
  { name: 'payments-ledger', scenario: 'payments-ledger', seed: 4301 },
  { name: 'web-access-log', scenario: 'web-access-log', seed: 4302 },
  { name: 'kubernetes-events', scenario: 'kubernetes-events', seed: 4303 },
  { name: 'app-config', scenario: 'app-config', seed: 4304 },
  { name: 'sensor-telemetry with comment noise', scenario: 'sensor-telemetry+comments', seed: 4305 },
  { name: 'genomics-fasta', scenario: 'genomics-fasta', seed: 4306 },
  { name: 'dns-zone', scenario: 'dns-zone', seed: 4307 },
  { name: 'weather-observations as CSV', scenario: 'weather-observations+csv', seed: 4308 },
  { name: 'http-api-traces with CRLF line endings', scenario: 'http-api-traces+crlf', seed: 4309 },
];

describe('near misses of the procedural skills fail in Docker', () => {
  for (const { name, scenario, seed } of CASES) {
    const skills = WITH_NEAR_MISSES.filter((skill) => misfit(scenario, skill) === null);
    const steps: Step[] = skills.map((skill, i) => ({ id: `s${i + 1}`, scenario, skill, dependsOn: [] }));
    const budgets = proceduralTaskBudgets(steps.length);
    // One image build, then the oracle, the nop and one trial per near-miss index, one after the other.
    it(
      `${name}: ${skills.length} skills, oracle 1, nop 0, every near miss rejected`,
      async () => {
        const { bundle, steps: rendered } = renderEnvironmentWithSteps({ steps }, { seed, name: `near-misses-${name.split(' ')[0]}` });
        const config = parseTaskConfig(bundleFile(bundle, 'task.toml')!.content.toString('utf8'));
        if (!config.ok) throw new Error(config.error);
        const build = await sandbox.buildEnvironmentImage(bundle, { timeoutSec: config.config.environment.build_timeout_sec });
        const run = (agent: Parameters<typeof trialRequest>[3], b: TaskBundle = bundle) =>
          sandbox.runTrial(trialRequest(b, config.config, build.imageId, agent, { 'envolve.test': 'near-misses' }));

        const oracle = await run({ kind: 'oracle' });
        expect(oracle.reward, `oracle:\n${oracle.verifier?.log}\n${oracle.agent.log}`).toBe(1);
        const nop = await run({ kind: 'nop' });
        expect(nop.reward).toBe(0);

        for (let k = 0; k < MOST_NEAR_MISSES; k++) {
          const { script, swapped } = swappedSolution(
            rendered.map((r) => ({ step: r.step, solve: r.solve })),
            seed,
            k,
          );
          if (swapped.size === 0) continue;
          const trial = await run({ kind: 'script', script });
          const verdicts = stepVerdicts(trial.verifier?.log ?? '');
          const got = steps.map((s) => `${s.id} ${s.skill}: ${verdicts.get(s.id)}`);
          const want = steps.map((s) => `${s.id} ${s.skill}: ${swapped.has(s.id) ? 'failed' : 'passed'}`);
          expect(got, `near miss #${k + 1}:\n${trial.verifier?.log}\n${trial.agent.log}`).toEqual(want);
          expect(trial.reward).toBe(0);
        }
      },
      limitMs(buildMs(budgets), (2 + MOST_NEAR_MISSES) * trialMs(budgets)),
    );
  }
});
