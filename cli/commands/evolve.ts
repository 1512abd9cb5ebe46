// `envolve evolve ENV_ID --generations N`: creates (or continues) the lineage of a seed and
// evolves it by N validated generations, printing the lineage. A seed the funnel has not kept
// under the lineage's policy is refused (exit 2, with the numbers) unless --force --reason records
// an override on the lineage.
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { resolveVersionId } from '../../lib/env/index.ts';
import {
  axisPolicyFromFlag,
  evolveLineage,
  findOrCreateLineage,
  lineageReport,
  lineageSandbox,
  seedFunnelOverrideOf,
  SYNTHESISERS,
  type LineageReport,
  type SeedFunnelOverride,
  type SynthesiserName,
} from '../../lib/evolution/index.ts';
import { EFFORTS, type Effort } from '../../lib/sequence/index.ts';
import { settings } from '../../lib/config/index.ts';
import { RefusedError } from '../../lib/errors/index.ts';
import { schedulerConfigFrom } from '../../lib/scheduler/index.ts';
import { checkSynthesiserSettings, createSynthesis } from '../../lib/synth/index.ts';
import { openSandbox, withDb } from '../context.ts';
import { describeSandboxRuntime, parseSandboxRuntime, SANDBOX_RUNTIMES, describeBuildMirrors } from '../../lib/sandbox/index.ts';
import { baseImagesFrom, nonNegativeInt, positiveInt, withBaseImageFlags } from '../flags.ts';
import { emit, fail, progress, shortId, table, type OutputOptions } from '../output.ts';

interface EvolveOptions extends OutputOptions {
  generations: string;
  axis: string;
  effort: string;
  synth: string;
  seed: string;
  sandboxRuntime?: string;
  policy: string;
  priors?: string;
  force?: boolean;
  reason?: string;
}

const operator = () => ({ id: null, email: `cli:${userInfo().username}` });

export function registerEvolveCommand(program: Command): void {
  withBaseImageFlags(program.command('evolve'))
    .argument('<id>', 'the seed environment version (id or unique prefix)')
    .description('evolve a seed into a lineage of validated, harder generations')
    .option('--generations <n>', 'validated generations to add', '1')
    .option('--axis <axis>', 'length | scenario | skill | round-robin', 'round-robin')
    .option('--effort <effort>', 'low | high | max', 'low')
    .option('--synth <name>', `synthesiser: ${SYNTHESISERS.join(' | ')}`, 'procedural')
    .option('--seed <n>', 'random seed of the lineage', '1')
    .option(
      '--sandbox-runtime <runtime>',
      `a new lineage's runtime: ${SANDBOX_RUNTIMES.join(' | ')} (default: the deployment's ENVOLVE_SANDBOX_RUNTIME); change an existing one with \`envolve lineage sandbox-runtime\``,
    )
    .option(
      '--policy <name>',
      "a new lineage's release gate: trainer (groups your trainer reports), another name a trainer reports under, or openai / anthropic (probed by Envolve); oracle and nop are refused",
      'trainer',
    )
    .option(
      '--priors <table>',
      "the reference priors a new lineage measures D under: reference (the shipped table) or a fitted version fit-… (`envolve priors list`); change an existing lineage's with `envolve lineage priors`",
    )
    .option('--force', "evolve although the seed funnel has not kept the seed under the lineage's policy (needs --reason; recorded on the lineage and audited)")
    .option('--reason <text>', 'why the seed funnel is overridden (with --force)')
    .option('--json', 'print one JSON document')
    .action(async (id: string, opts: EvolveOptions) => {
      try {
        const report = await evolveCommand(id, opts);
        emit(opts, report, humanReport);
        // An exhausted lineage said honestly why it stopped; fewer generations otherwise is a failure.
        if (report.added < Number(opts.generations) && !report.exhausted) process.exitCode = 1;
      } catch (err) {
        fail(opts, err);
      }
    });
}

type EvolveReport = LineageReport & {
  added: number;
  stalled: boolean;
  exhausted: string | null;
  needsAttention: { id: string; number: number; reason: string } | null;
  buildFailed: { number: number; error: string } | null;
  stopped: string | null; // the lineage waits for a person: nothing was evolved from there
  seedFunnelOverride: SeedFunnelOverride | null; // evolving although the funnel did not keep the seed
};

async function evolveCommand(id: string, opts: EvolveOptions): Promise<EvolveReport> {
  const generations = positiveInt(opts.generations, '--generations');
  const seed = nonNegativeInt(opts.seed, '--seed');
  if (!SYNTHESISERS.includes(opts.synth as SynthesiserName)) throw new Error(`--synth must be one of ${SYNTHESISERS.join(', ')}`);
  // Flags are checked before anything touches the database or Docker.
  const axisPolicy = axisPolicyFromFlag(opts.axis);
  if (!EFFORTS.includes(opts.effort as Effort)) throw new Error(`--effort must be one of ${EFFORTS.join(', ')}, not '${opts.effort}'`);
  const sandboxRuntime = opts.sandboxRuntime === undefined ? undefined : parseSandboxRuntime(opts.sandboxRuntime, '--sandbox-runtime');
  const override = funnelOverride(opts);
  // Claude without a key fails here, before a lineage row is written.
  checkSynthesiserSettings(opts.synth as SynthesiserName);
  return withDb(async (db) => {
    const seedVersionId = await resolveVersionId(db, id);
    const lineage = await findOrCreateLineage(
      db,
      seedVersionId,
      {
        axisPolicy,
        effort: opts.effort as Effort,
        synthesiser: opts.synth as SynthesiserName,
        seed,
        baseImages: baseImagesFrom(opts),
        sandboxRuntime,
      },
      { probePolicy: opts.policy },
      { config: schedulerConfigFrom(settings().scheduler), override },
      opts.priors,
    );
    progress(`lineage ${lineage.row.id}: ${lineage.row.name}`);
    const sandbox = lineageSandbox(await openSandbox(), lineage.settings);
    const synthesis = createSynthesis(opts.synth as SynthesiserName, { sandbox });
    const result = await evolveLineage({ db, sandbox, ...synthesis, progress }, lineage.row.id, generations);
    const needsAttention = result.needsAttention
      ? { id: result.needsAttention.id, number: result.needsAttention.number, reason: result.needsAttention.error ?? '' }
      : null;
    const added = result.validated.length;
    const buildFailed = result.buildFailed ? { number: result.buildFailed.number, error: result.buildFailed.error ?? '' } : null;
    const stopped = result.stopped?.message ?? null;
    return {
      ...(await lineageReport(db, lineage.row.id)),
      added,
      stalled: result.stalled,
      exhausted: result.exhausted,
      needsAttention,
      buildFailed,
      stopped,
      seedFunnelOverride: seedFunnelOverrideOf(lineage.row),
    };
  });
}

// An override of the seed funnel is deliberate: it says why, and the why is kept.
function funnelOverride(opts: EvolveOptions): { actor: ReturnType<typeof operator>; reason: string } | undefined {
  const reason = opts.reason?.trim();
  if (opts.force && !reason)
    throw new RefusedError('--force overrides the seed funnel and needs --reason "<why>" (recorded on the lineage)', { code: 'reason_required' });
  if (!opts.force && opts.reason !== undefined) throw new Error('--reason goes with --force');
  return opts.force && reason ? { actor: operator(), reason } : undefined;
}

function humanReport(report: EvolveReport): string {
  const override = report.seedFunnelOverride;
  return [
    lineageSummary(report),
    ...(override ? [`seed funnel overridden by ${override.by} at ${override.at}: ${override.reason} (the funnel said: ${override.verdict.message})`] : []),
    `${report.added} generation(s) added${report.stalled && !report.buildFailed ? '; the lineage stalled after repeated failures' : ''}${report.exhausted ? `; ${report.exhausted}` : ''}`,
    ...(report.buildFailed ? [`generation ${report.buildFailed.number} ${report.buildFailed.error}`] : []),
    ...(report.needsAttention
      ? [
          `generation ${report.needsAttention.number} needs attention, evolution stopped there: ${report.needsAttention.reason}`,
          `take an exit: envolve attention ${report.needsAttention.id} --retry [--budget 2] | --discard "<reason>" | --accept "<justification>" (lead)`,
        ]
      : []),
    ...(report.stopped ? [report.stopped] : []),
  ].join('\n');
}

/** A lineage as `envolve evolve` and `envolve lineage show` print it. */
export function lineageSummary(report: LineageReport): string {
  const rows = report.generations.map((g) => {
    // An unknown D (an undescribed step) is said in its own column; its components are not numbers either.
    const d = g.difficulty && 'unknown' in g.difficulty ? null : g.difficulty;
    const total = g.difficulty && 'unknown' in g.difficulty ? g.difficulty.label : d ? d.total.toFixed(2) : '–';
    return [
      String(g.number),
      g.state,
      shortId(g.versionId),
      g.axis,
      d ? `${d.length}` : '–',
      d?.depth != null ? `${d.depth}` : '–',
      total,
      d ? d.scenarioNovelty.toFixed(2) : '–',
      d ? d.skillRarity.toFixed(2) : '–',
      ['oracle', 'invalid-test', 'counter-check', 'near-miss', 'rubric'].map((k) => g.verdicts[k]?.shown ?? '–').join('/'),
      `${g.planRounds}/${g.attempts}`,
    ];
  });
  return [
    `${report.name}  (${report.id}, ${report.synthesiser}, seed ${report.seed})`,
    `sandbox runtime: ${describeSandboxRuntime(report.sandboxRuntime)}`,
    `build mirrors: ${describeBuildMirrors(report.buildMirrors)}`,
    `priors: ${report.priors.version} (${report.priors.description})`,
    table([
      ['GEN', 'STATE', 'VERSION', 'AXIS', 'L (TURNS)', 'DEPTH', 'D', 'NOVELTY', 'RARITY', 'ORACLE/NOP/COUNTER/NEAR-MISS/RUBRIC', 'PLAN/ATTEMPTS'],
      ...rows,
    ]),
  ].join('\n');
}
