// `envolve determinism VERSION_ID`: the same seeded actions twice; any difference in what they
// observed is a defect of the environment (exit code 1, the differing turns shown).
import type { Command } from 'commander';
import { resolveVersionId } from '../../lib/env/index.ts';
import type { Difference } from '../../lib/rollout/index.ts';
import { checkDeterminism, createPolicy, parsePolicyName } from '../../lib/rollout/index.ts';
import { openSandbox, withDb } from '../context.ts';
import { nonNegativeInt } from '../flags.ts';
import { emit, fail, progress, shortId, type OutputOptions } from '../output.ts';
import { versionSandbox } from '../../lib/evolution/index.ts';

const SHOWN_CHARS = 400;

function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… (${text.length} chars)` : text;
}

const describe = (d: Difference) => `  ${d.where}, ${d.field}:\n    first:  ${shown(d.first)}\n    second: ${shown(d.second)}`;

export function registerDeterminismCommand(program: Command): void {
  program
    .command('determinism')
    .argument('<version>', 'an environment version id or a unique prefix of it')
    .description('run the same seeded actions twice on fresh containers and diff the observations turn by turn')
    .option('--seed <n>', 'seed of the simulated agent', '1')
    .option('--policy <name>', 'simulated (seeded actions) | oracle', 'simulated')
    .option('--json', 'print one JSON document')
    .action(async (ref: string, opts: OutputOptions & { seed: string; policy: string }) => {
      try {
        const seed = nonNegativeInt(opts.seed, '--seed');
        const name = parsePolicyName(opts.policy);
        if (name !== 'simulated' && name !== 'oracle') throw new Error('--policy must be simulated or oracle: only scripted actions can be repeated exactly');
        const report = await withDb(async (db) => {
          const versionId = await resolveVersionId(db, ref);
          return checkDeterminism(
            { db, sandbox: await versionSandbox(db, await openSandbox(), versionId) },
            { versionId, policy: createPolicy({ name }), seed, progress },
          );
        });
        emit(opts, report, (r) =>
          [
            r.deterministic
              ? `${shortId(r.versionId)}: deterministic: two ${r.policy} runs with seed ${r.seed} observed the same`
              : `${shortId(r.versionId)}: DEFECT: two ${r.policy} runs with seed ${r.seed} observed ${r.differences.length} difference(s):`,
            ...r.differences.map(describe),
            `not compared: ${r.ignored.join('; ')}`,
            `rollouts: ${r.rolloutIds.join(', ')}`,
          ].join('\n'),
        );
        if (!report.deterministic) process.exitCode = 1;
      } catch (err) {
        fail(opts, err);
      }
    });
}
