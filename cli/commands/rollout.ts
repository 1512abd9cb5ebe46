// `envolve rollout VERSION_ID --policy P`: run rollouts of one policy on one environment version
// here and now, storing each trajectory; prints reward, turns and id per rollout.
import type { Command } from 'commander';
import { resolveVersionId } from '../../lib/env/index.ts';
import { createPolicy, parsePolicyName, POLICY_NAMES, type PolicySpec, runRollout, type RolloutSummary } from '../../lib/rollout/index.ts';
import { openSandbox, withDb } from '../context.ts';
import { baseImagesFrom, fraction, nonNegativeInt, positiveInt, withBaseImageFlags } from '../flags.ts';
import { withBaseImages } from '../../lib/sandbox/index.ts';
import { emit, fail, progress, shortId, table, type OutputOptions } from '../output.ts';
import { versionSandbox } from '../../lib/evolution/index.ts';

interface RolloutOptions extends OutputOptions {
  policy: string;
  seed: string;
  attempts: string;
  competence?: string;
  model?: string;
  maxTurns?: string;
  agentTimeout?: string;
  passThreshold: string;
}

// The policy a command line asks for: --competence for the simulated agent, --model for LLMs.
export function policySpecFrom(opts: { policy: string; competence?: string; model?: string }): PolicySpec {
  const name = parsePolicyName(opts.policy);
  if (opts.competence !== undefined && name !== 'simulated') throw new Error('--competence applies to the simulated policy only');
  if (opts.model !== undefined && name !== 'anthropic' && name !== 'openai') throw new Error('--model applies to the anthropic and openai policies only');
  if (name === 'simulated') return { name, ...(opts.competence !== undefined ? { competence: opts.competence } : {}) };
  if (name === 'anthropic' || name === 'openai') return { name, ...(opts.model !== undefined ? { model: opts.model } : {}) };
  return { name };
}

export function registerRolloutCommand(program: Command): void {
  withBaseImageFlags(program.command('rollout'))
    .argument('<version>', 'an environment version id or a unique prefix of it')
    .description('run a policy in fresh containers of a version, store the trajectories, print reward/turns/id per rollout')
    .requiredOption('--policy <name>', POLICY_NAMES.join(' | '))
    .option('--seed <n>', 'seed of the first attempt; attempt i runs with seed + i - 1', '1')
    .option('--attempts <n>', 'rollouts to run, one after another', '1')
    .option('--competence <file>', 'simulated policy: a JSON competence profile {"default": p, "skills": {"name": p}}')
    .option('--model <id>', 'anthropic / openai policies: the model to use')
    .option('--max-turns <n>', 'commands the policy may run (default 100)')
    .option('--agent-timeout <sec>', "wall-clock budget of the agent (default: the task's [agent] timeout_sec; at most ENVOLVE_MAX_AGENT_TIMEOUT_SEC)")
    .option('--pass-threshold <r>', 'a rollout passes at this reward or more', '1')
    .option('--json', 'print one JSON document')
    .action(async (ref: string, opts: RolloutOptions) => {
      try {
        const seed = nonNegativeInt(opts.seed, '--seed');
        const attempts = positiveInt(opts.attempts, '--attempts');
        const maxTurns = opts.maxTurns === undefined ? undefined : positiveInt(opts.maxTurns, '--max-turns');
        const agentTimeoutSec = opts.agentTimeout === undefined ? undefined : positiveInt(opts.agentTimeout, '--agent-timeout');
        const passThreshold = fraction(opts.passThreshold, '--pass-threshold');
        const policy = createPolicy(policySpecFrom(opts));
        const rollouts = await withDb(async (db) => {
          const versionId = await resolveVersionId(db, ref);
          // The lineage's sandbox, with this run's base-image flags over its mapping.
          const sandbox = withBaseImages(await versionSandbox(db, await openSandbox(), versionId), baseImagesFrom(opts));
          const done: RolloutSummary[] = [];
          for (let attempt = 1; attempt <= attempts; attempt++) {
            progress(`attempt ${attempt}/${attempts}: ${policy.name} on ${shortId(versionId)} (seed ${seed + attempt - 1})`);
            const r = await runRollout({ db, sandbox }, { versionId, policy, seed: seed + attempt - 1, attempt, maxTurns, agentTimeoutSec, passThreshold });
            progress(`attempt ${attempt}/${attempts}: ${r.status}, reward ${r.reward ?? '–'}, ${r.turns} turns, ${r.durationMs} ms`);
            done.push(r);
          }
          return { versionId, policy: policy.name, policyVersion: policy.version, simulated: policy.simulated, rollouts: done };
        });
        emit(opts, rollouts, (r) =>
          [
            `${r.policy}${r.simulated ? ' (simulated)' : ''} on ${shortId(r.versionId)}: ${r.rollouts.filter((x) => x.passed).length}/${r.rollouts.length} passed`,
            table([
              ['ATTEMPT', 'STATUS', 'REWARD', 'PASSED', 'TURNS', 'MS', 'ID'],
              ...r.rollouts.map((x, i) => [
                String(i + 1),
                x.status,
                String(x.reward ?? '–'),
                x.passed === null ? '–' : x.passed ? 'yes' : 'no',
                String(x.turns),
                String(x.durationMs),
                x.id,
              ]),
            ]),
          ].join('\n'),
        );
        if (rollouts.rollouts.some((r) => r.status === 'error')) process.exitCode = 1;
      } catch (err) {
        fail(opts, err);
      }
    });
}
