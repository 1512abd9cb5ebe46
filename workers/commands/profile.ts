// `envolve profile VERSION_ID`: the environment's rollout latency (p50/p95/p99) and its
// concurrency ceiling, stored as an EnvironmentProfile.
import type { Command } from 'commander';
import { resolveVersionId } from '../../lib/env/store.ts';
import { createPolicy, POLICY_NAMES } from '../../lib/rollout/policies/index.ts';
import { DEFAULT_MAX_CONCURRENCY, DEFAULT_PROFILE_SAMPLES, profileEnvironment } from '../../lib/rollout/profile.ts';
import { openSandbox, withDb } from '../context.ts';
import { positiveInt } from '../flags.ts';
import { emit, fail, progress, shortId, table, type OutputOptions } from '../output.ts';
import { policySpecFrom } from './rollout.ts';

interface ProfileOptions extends OutputOptions {
  samples: string;
  maxConcurrency: string;
  policy: string;
  competence?: string;
  model?: string;
}

export function registerProfileCommand(program: Command): void {
  program
    .command('profile')
    .argument('<version>', 'an environment version id or a unique prefix of it')
    .description('rollout wall-time p50/p95/p99 (one at a time) and the concurrency ceiling (1, 2, 4… until throughput stops rising >10% or errors start)')
    .option('--samples <n>', 'rollouts at concurrency 1, the latency sample', String(DEFAULT_PROFILE_SAMPLES))
    .option('--max-concurrency <n>', 'highest concurrency to try', String(DEFAULT_MAX_CONCURRENCY))
    .option('--policy <name>', `${POLICY_NAMES.join(' | ')} (oracle: the environment's own latency)`, 'oracle')
    .option('--competence <file>', 'simulated policy: a JSON competence profile')
    .option('--model <id>', 'anthropic / openai policies: the model to use')
    .option('--json', 'print one JSON document')
    .action(async (ref: string, opts: ProfileOptions) => {
      try {
        const samples = positiveInt(opts.samples, '--samples');
        const maxConcurrency = positiveInt(opts.maxConcurrency, '--max-concurrency');
        const policy = createPolicy(policySpecFrom(opts));
        const report = await withDb(async (db) =>
          profileEnvironment({ db, sandbox: await openSandbox() }, { versionId: await resolveVersionId(db, ref), policy, samples, maxConcurrency, progress }),
        );
        emit(opts, report, (r) =>
          [
            `${shortId(r.versionId)} (${r.policy}, image ${shortId(r.imageId)}): rollout wall time at concurrency 1 over ${r.samples} rollouts`,
            `  p50 ${r.p50Ms} ms   p95 ${r.p95Ms} ms   p99 ${r.p99Ms} ms`,
            `concurrency ceiling: ${r.concurrencyCeiling}${r.concurrencyCeiling === 0 ? ' (errors even one at a time)' : ''}${r.ceilingIsLowerBound ? ' or more (the highest level tried still improved; raise --max-concurrency)' : ''}`,
            table([
              ['CONCURRENCY', 'ROLLOUTS', 'WALL MS', 'ROLLOUTS/MIN', 'P50 MS', 'ERRORS'],
              ...r.curve.map((p) => [String(p.concurrency), String(p.rollouts), String(p.wallMs), p.rolloutsPerMin.toFixed(2), String(p.p50Ms), String(p.errors)]),
            ]),
            `profile ${r.profileId}`,
          ].join('\n'),
        );
      } catch (err) {
        fail(opts, err);
      }
    });
}
