// `envolve profile VERSION_ID`: the environment's rollout latency (p50/p95/p99) at the training
// concurrency, each percentile only from enough rollouts, and its concurrency ceiling, stored as
// an EnvironmentProfile.
import type { Command } from 'commander';
import { resolveVersionId } from '../../lib/env/index.ts';
import { createPolicy, POLICY_NAMES, DEFAULT_MAX_CONCURRENCY, DEFAULT_PROFILE_SAMPLES, profileEnvironment } from '../../lib/rollout/index.ts';
import { probePolicyOfVersion, schedulerConfigFrom } from '../../lib/scheduler/index.ts';
import { openSandbox, withDb } from '../context.ts';
import { positiveInt } from '../flags.ts';
import { emit, fail, progress, shortId, table, type OutputOptions } from '../output.ts';
import { policySpecFrom } from './rollout.ts';
import { settings } from '../../lib/config/index.ts';
import { versionSandbox } from '../../lib/evolution/index.ts';

interface ProfileOptions extends OutputOptions {
  rollouts: string;
  concurrency?: string;
  maxConcurrency: string;
  policy?: string;
  competence?: string;
  model?: string;
}

export function registerProfileCommand(program: Command): void {
  program
    .command('profile')
    .argument('<version>', 'an environment version id or a unique prefix of it')
    .description(
      'rollout wall-time p50/p95/p99 at the training concurrency (each only from enough rollouts: p95 needs 20, p99 100) and the concurrency ceiling (1, 2, 4… until throughput stops rising >10% or errors start)',
    )
    .option('--rollouts <k>', 'K: rollouts in the latency sample', String(DEFAULT_PROFILE_SAMPLES))
    .option('--concurrency <n>', "N: rollouts at once in the latency sample (default: ENVOLVE_PROBE_CONCURRENCY, the scheduler's)")
    .option('--max-concurrency <n>', 'highest concurrency to try for the ceiling', String(DEFAULT_MAX_CONCURRENCY))
    .option('--policy <name>', `${POLICY_NAMES.join(' | ')} (default: the probe policy of the version's lineage, else ENVOLVE_PROBE_POLICY)`)
    .option('--competence <file>', 'simulated policy: a JSON competence profile')
    .option('--model <id>', 'anthropic / openai policies: the model to use')
    .option('--json', 'print one JSON document')
    .action(async (ref: string, opts: ProfileOptions) => {
      try {
        const samples = positiveInt(opts.rollouts, '--rollouts');
        const maxConcurrency = positiveInt(opts.maxConcurrency, '--max-concurrency');
        const config = schedulerConfigFrom(settings().scheduler);
        const concurrency = opts.concurrency ? positiveInt(opts.concurrency, '--concurrency') : config.probeConcurrency;
        const report = await withDb(async (db) => {
          const versionId = await resolveVersionId(db, ref);
          const name = opts.policy ?? (await probePolicyOfVersion(db, versionId, config));
          const policy = createPolicy(policySpecFrom({ ...opts, policy: name }));
          return profileEnvironment(
            { db, sandbox: await versionSandbox(db, await openSandbox(), versionId) },
            { versionId, policy, samples, concurrency, maxConcurrency, progress },
          );
        });
        const ms = (v: number | null) => (v === null ? '–' : `${v} ms`);
        emit(opts, report, (r) =>
          [
            `${shortId(r.versionId)} (${r.policy}, image ${shortId(r.imageId)}): rollout wall time at concurrency ${r.concurrency} over ${r.samples} rollouts`,
            `  p50 ${ms(r.p50Ms)}   p95 ${ms(r.p95Ms)}   p99 ${ms(r.p99Ms)}`,
            ...r.needMoreSamples.map((n) => `  not reported: ${n}`),
            `  where the time goes (median per sandbox step): ${
              Object.entries(r.phaseP50Ms)
                .map(([step, v]) => `${step} ${v} ms`)
                .join(', ') || 'no trial steps recorded'
            }`,
            `concurrency ceiling: ${r.concurrencyCeiling}${r.concurrencyCeiling === 0 ? ' (errors even one at a time)' : ''}${r.ceilingIsLowerBound ? ' or more (the highest level tried still improved; raise --max-concurrency)' : ''}`,
            table([
              ['CONCURRENCY', 'ROLLOUTS', 'WALL MS', 'ROLLOUTS/MIN', 'P50 MS', 'ERRORS'],
              ...r.curve.map((p) => [
                String(p.concurrency),
                String(p.rollouts),
                String(p.wallMs),
                p.rolloutsPerMin.toFixed(2),
                String(p.p50Ms),
                String(p.errors),
              ]),
            ]),
            `profile ${r.profileId}`,
          ].join('\n'),
        );
      } catch (err) {
        fail(opts, err);
      }
    });
}
