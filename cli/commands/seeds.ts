// `envolve seeds filter|funnel`: the seed filter over imported candidates, thin over
// lib/gate/seed-filter.ts. Candidates without a probe under the policy are probed first (in the
// sandbox, through the scheduler's probeVersion); the run and its thresholds are stored for /drift.
import type { Command } from 'commander';
import type { Db } from '../../lib/db/index.ts';
import { passRateLimit, removedBy, seedFilterThresholdsSchema, type Funnel, latestSeedFilterRun, runSeedFilter } from '../../lib/gate/index.ts';
import { resolveVersionId } from '../../lib/env/index.ts';
import { parsePolicyName } from '../../lib/rollout/index.ts';
import { policyNamed, probeVersion, schedulerConfigFrom } from '../../lib/scheduler/index.ts';
import { withBaseImages, type Sandbox } from '../../lib/sandbox/index.ts';
import { openSandbox, withDb } from '../context.ts';
import { baseImagesFrom, positiveInt, withBaseImageFlags } from '../flags.ts';
import { emit, fail, progress, table, type OutputOptions } from '../output.ts';
import { settings } from '../../lib/config/index.ts';

const FLAGS: Record<string, string> = { maxPasses: 'max-passes', probeSize: 'probe-size', minTurns: 'min-turns' };

type FilterOpts = OutputOptions & {
  maxPasses: string;
  probeSize: string;
  minTurns: string;
  policy: string;
  versions?: string;
  allImported?: boolean;
  concurrency?: string;
};

function describeFunnel(funnel: Funnel, header: string): string {
  const t = funnel.thresholds;
  const names = (reason: 'unprobed' | 'pass-rate' | 'turns') =>
    removedBy(funnel, reason).map((d) => `${d.name} (${d.passes ?? '–'}/${d.size ?? '–'}, ${d.meanTurns?.toFixed(1) ?? '–'} turns)`);
  const lines = [header, ...funnel.stages.map((s) => `  ${s.label.padEnd(24)} ${String(s.count).padStart(6)}`)];
  const section = (title: string, items: string[]) => (items.length ? [``, `${title} (${items.length}):`, ...items.map((i) => `  ${i}`)] : []);
  lines.push(...section(`removed by pass rate > ${passRateLimit(t)}`, names('pass-rate')));
  lines.push(...section(`removed by mean turns < ${t.minTurns}`, names('turns')));
  lines.push(...section('not probed', names('unprobed')));
  const kept = funnel.decisions.filter((d) => d.kept);
  if (kept.length)
    lines.push(
      '',
      table([
        ['KEPT SEED', 'VERSION', 'PASSES', 'MEAN TURNS'],
        ...kept.map((d) => [d.name, d.versionId.slice(0, 12), `${d.passes}/${d.size}`, d.meanTurns?.toFixed(1) ?? '–']),
      ]),
    );
  return lines.join('\n');
}

async function filterCommand(db: Db, opts: FilterOpts): Promise<void> {
  const parsed = seedFilterThresholdsSchema.safeParse({ maxPasses: opts.maxPasses, probeSize: opts.probeSize, minTurns: opts.minTurns });
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `--${FLAGS[String(i.path[0])] ?? i.path.join('.')}: ${i.message}`).join('; '));
  const thresholds = parsed.data;
  const policyName = parsePolicyName(opts.policy);
  if (opts.versions && opts.allImported) throw new Error('give --versions or --all-imported, not both');
  const versionIds = opts.versions ? await Promise.all(opts.versions.split(',').map((v) => resolveVersionId(db, v.trim()))) : undefined;
  const config = schedulerConfigFrom(settings().scheduler);
  const concurrency = opts.concurrency ? positiveInt(opts.concurrency, '--concurrency') : config.probeConcurrency;
  let sandbox: Sandbox | null = null;
  const result = await runSeedFilter(db, {
    policy: policyName,
    versionIds,
    thresholds,
    probe: async (versionId) => {
      // Docker only when a candidate still needs its probe.
      sandbox ??= withBaseImages(await openSandbox(), baseImagesFrom(opts));
      progress(`probing ${versionId.slice(0, 12)}: ${thresholds.probeSize} rollouts of ${policyName}`);
      const summary = await probeVersion(
        { db, sandbox },
        { versionId, policy: policyNamed(policyName), size: thresholds.probeSize, concurrency, purpose: 'probe', progress },
      );
      progress(`  ${summary.passes}/${summary.size} passed, mean turns ${summary.meanTurns?.toFixed(1) ?? '–'}`);
    },
  });
  emit(opts, result, (r) =>
    describeFunnel(r.funnel, `seed filter run ${r.id} under ${r.policy}${r.probedNow.length ? `, probed ${r.probedNow.length} candidate(s) first` : ''}:`),
  );
}

export function registerSeedsCommands(program: Command): void {
  const seeds = program.command('seeds').description('which imported environments are hard enough to evolve: the seed filter and its funnel');
  withBaseImageFlags(seeds.command('filter'))
    .description('probe candidates lacking a probe under the policy, keep those at pass rate ≤ max-passes/probe-size and mean turns ≥ min-turns, store the run')
    .option('--max-passes <n>', 'keep at most this many passes of --probe-size', '4')
    .option('--probe-size <n>', 'rollouts per probe (other group sizes are scaled)', '8')
    .option('--min-turns <n>', 'keep at least this many mean turns per trajectory', '30')
    .option('--policy <name>', 'the probe policy (oracle | nop | simulated | anthropic | openai)', 'simulated')
    .option('--versions <ids>', 'comma-separated version ids or unique prefixes (default: every imported version)')
    .option('--all-imported', 'every imported version (the default)')
    .option('--concurrency <n>', 'rollouts at once per probe (default ENVOLVE_PROBE_CONCURRENCY or 2)')
    .option('--json', 'print one JSON document')
    .action(async (opts: FilterOpts) => {
      try {
        await withDb((db) => filterCommand(db, opts));
      } catch (err) {
        fail(opts, err);
      }
    });
  seeds
    .command('funnel')
    .description('the latest stored seed filter run: its thresholds, the funnel and what each threshold removed')
    .option('--json', 'print one JSON document')
    .action(async (opts: OutputOptions) => {
      try {
        const run = await withDb((db) => latestSeedFilterRun(db));
        if (!run) throw new Error('no seed filter run is stored yet: run `envolve seeds filter`');
        emit(opts, run, (r) => describeFunnel(r.funnel, `seed filter run ${r.id} (${r.createdAt.toISOString()}) under ${r.policy}:`));
      } catch (err) {
        fail(opts, err);
      }
    });
}
