// The EL scheduler from the command line: probe a generation or version, advance a lineage's
// frontier, manage held-out sets, and evaluate a policy on one.
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import type { Db } from '../../lib/db/index.ts';
import { resolveVersionId } from '../../lib/env/index.ts';
import {
  checkSetName,
  evaluateHeldOutSet,
  holdOut,
  lineageGatePatchSchema,
  listHeldOutSets,
  policyNamed,
  probeSettings,
  probeVersion,
  releaseHeldOut,
  scheduleLineage,
  schedulerConfigFrom,
  setLineageGate,
  type EvalReport,
  type ProbeSummary,
} from '../../lib/scheduler/index.ts';
import { openSandbox, withDb } from '../context.ts';
import { baseImagesFrom, fraction, positiveInt, withBaseImageFlags } from '../flags.ts';
import { mergeMappings } from '../../lib/sandbox/index.ts';
import { loadLineage, lineageOfVersion, lineageSandbox } from '../../lib/evolution/index.ts';
import type { LineageSettings } from '../../lib/evolution/index.ts';
import { emit, fail, progress, shortId, table, type OutputOptions } from '../output.ts';
import { registerLineageCommands } from './lineage.ts';
import { settings } from '../../lib/config/index.ts';

interface ProbeOptions extends OutputOptions {
  policy?: string;
  size?: string;
  concurrency?: string;
}

// A generation id, or an environment version id (or unique prefix).
async function probeTarget(db: Db, id: string): Promise<{ versionId: string; generationId?: string; lineageId?: string }> {
  const generation = await db.generation.findUnique({ where: { id }, select: { id: true, versionId: true, lineageId: true } });
  if (generation) {
    if (!generation.versionId) throw new Error(`generation ${id} has no validated version to probe`);
    return { versionId: generation.versionId, generationId: generation.id, lineageId: generation.lineageId };
  }
  return { versionId: await resolveVersionId(db, id) };
}

function probeSummary(s: ProbeSummary & { frontier?: number }): string {
  return [
    `group ${s.groupId} on ${shortId(s.versionId)}: ${s.passes}/${s.size} passed (${s.timeouts} timed out, ${s.errors} sandbox errors), state ${s.state}`,
    `mean turns ${s.meanTurns?.toFixed(1) ?? '–'}, wall time ${(s.durationMs / 1000).toFixed(1)} s`,
    ...(s.frontier !== undefined ? [`lineage frontier: generation ${s.frontier}`] : []),
  ].join('\n');
}

function registerProbe(program: Command): void {
  withBaseImageFlags(program.command('probe'))
    .argument('<id>', 'a generation id, or an environment version id (or unique prefix)')
    .description('run a probe group (8 rollouts by default) and let the scheduler act on it')
    .option('--policy <name>', "oracle | nop | simulated | anthropic | openai (default: the lineage's probe policy, else ENVOLVE_PROBE_POLICY or oracle)")
    .option('--size <n>', "rollouts in the group (default: ENVOLVE_PROBE_SIZE or 8, at least the lineage's minimum group)")
    .option('--concurrency <n>', 'rollouts at once (default: ENVOLVE_PROBE_CONCURRENCY or 2)')
    .option('--json', 'print one JSON document')
    .action(async (id: string, opts: ProbeOptions) => {
      try {
        const config = schedulerConfigFrom(settings().scheduler, {
          ...(opts.concurrency ? { probeConcurrency: positiveInt(opts.concurrency, '--concurrency') } : {}),
        });
        const result = await withDb(async (db) => {
          const target = await probeTarget(db, id);
          const probe = await probeSettings(db, target.lineageId, config);
          // The lineage's sandbox (the version's, when probed by version id), this run's base-image flags over its mapping.
          const lineage = target.lineageId ? await loadLineage(db, target.lineageId) : await lineageOfVersion(db, target.versionId);
          const stored: Pick<LineageSettings, 'baseImages' | 'sandboxRuntime' | 'buildMirrors'> = lineage?.settings ?? {};
          const sandbox = lineageSandbox(await openSandbox(), { ...stored, baseImages: mergeMappings(stored.baseImages, baseImagesFrom(opts)) });
          const summary = await probeVersion(
            { db, sandbox },
            {
              ...target,
              policy: policyNamed(opts.policy ?? probe.policy),
              size: opts.size ? positiveInt(opts.size, '--size') : probe.size,
              concurrency: config.probeConcurrency,
              passThreshold: config.passThreshold,
              timeoutReward: probe.timeoutReward,
              progress,
            },
          );
          if (!target.lineageId) return summary;
          const advanced = await scheduleLineage(db, target.lineageId, config);
          return { ...summary, frontier: advanced.frontier, steps: advanced.steps };
        });
        emit(opts, result, probeSummary);
      } catch (err) {
        fail(opts, err);
      }
    });
}

function registerSchedule(program: Command): void {
  program
    .command('schedule')
    .argument('<lineage>', 'lineage id')
    .description("advance a lineage's frontier from its probes, queueing the probe it waits for")
    .option('--json', 'print one JSON document')
    .action(async (lineageId: string, opts: OutputOptions) => {
      try {
        const config = schedulerConfigFrom(settings().scheduler);
        const result = await withDb((db) => scheduleLineage(db, lineageId, config));
        emit(opts, result, (r) => [`frontier: generation ${r.frontier}`, ...r.steps.map((s) => `  ${JSON.stringify(s)}`)].join('\n'));
      } catch (err) {
        fail(opts, err);
      }
    });
}

// The CLI acts as its operating-system user in the audit log.
const operator = () => ({ id: null, email: `cli:${userInfo().username}` });

interface GateOptions extends OutputOptions {
  policy?: string;
  yes?: boolean;
  releaseRate?: string;
  minGroup?: string;
  timeoutReward?: string;
}

function registerLineageGate(program: Command): void {
  const lineage = program.command('lineage').description('a lineage: its report, release gate and sandbox runtime');
  registerLineageCommands(lineage);
  lineage
    .command('gate')
    .argument('<lineage>', 'lineage id')
    .description(
      'set the policy whose groups release the lineage, the release rate, minimum group and timeout reward; a new policy re-evaluates the frontier from its groups only',
    )
    .option(
      '--policy <name>',
      'the policy whose groups count: trainer (groups your trainer reports; any other name a trainer reports under) or openai / anthropic (probed by Envolve); oracle and nop are refused, simulated only for the demo lineage',
    )
    .option('--yes', 'confirm a policy change that withdraws releases')
    .option('--release-rate <r>', 'release when passes / size is at least this (0–1]')
    .option('--min-group <n>', 'the smallest group that may release')
    .option('--timeout-reward <r>', 'the reward the server gives a timed-out rollout')
    .option('--json', 'print one JSON document')
    .action(async (lineageId: string, opts: GateOptions) => {
      try {
        const patch = lineageGatePatchSchema.parse({
          ...(opts.policy ? { probePolicy: opts.policy } : {}),
          ...(opts.releaseRate ? { releaseRate: fraction(opts.releaseRate, '--release-rate') } : {}),
          ...(opts.minGroup ? { minGroup: positiveInt(opts.minGroup, '--min-group') } : {}),
          ...(opts.timeoutReward ? { timeoutReward: Number(opts.timeoutReward) } : {}),
        });
        const config = schedulerConfigFrom(settings().scheduler);
        const result = await withDb((db) => setLineageGate(db, operator(), lineageId, patch, config, { confirmWithdrawal: opts.yes === true }));
        emit(opts, result, (r) =>
          [
            `gate: ${r.rule.policy} groups of at least ${r.rule.minGroup}, release at ${r.rule.releaseRate}, timeouts scored ${r.rule.timeoutReward}${r.rule.demoMode ? ' (demo mode)' : ''}`,
            `frontier: generation ${r.frontier}`,
            ...r.steps.map((s) => `  ${JSON.stringify(s)}`),
          ].join('\n'),
        );
      } catch (err) {
        fail(opts, err);
      }
    });
}

function registerHeldOut(program: Command): void {
  const heldout = program.command('heldout').description('held-out sets: environments never served for training');
  heldout
    .command('add')
    .argument('<set>', 'set name')
    .option('--versions <ids>', 'comma-separated environment version ids (or unique prefixes)')
    .option('--lineages <ids>', 'comma-separated lineage ids')
    .option('--json', 'print one JSON document')
    .action(async (set: string, opts: OutputOptions & { versions?: string; lineages?: string }) => {
      try {
        checkSetName(set);
        const split = (v?: string) =>
          v
            ? v
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean)
            : [];
        if (!opts.versions && !opts.lineages) throw new Error('give --versions or --lineages');
        const result = await withDb(async (db) => {
          const versionIds = await Promise.all(split(opts.versions).map((v) => resolveVersionId(db, v)));
          return holdOut(db, { set, versionIds, lineageIds: split(opts.lineages) });
        });
        emit(opts, { set, ...result }, (r) => `held out in "${r.set}": ${r.versions} version(s), ${r.lineages} lineage(s)`);
      } catch (err) {
        fail(opts, err);
      }
    });
  heldout
    .command('remove')
    .argument('<set>', 'set name')
    .option('--json', 'print one JSON document')
    .action(async (set: string, opts: OutputOptions) => {
      try {
        const result = await withDb((db) => releaseHeldOut(db, set));
        emit(opts, { set, ...result }, (r) => `released set "${r.set}": ${r.versions} version(s), ${r.lineages} lineage(s) may be trained on again`);
      } catch (err) {
        fail(opts, err);
      }
    });
  heldout
    .command('list')
    .option('--json', 'print one JSON document')
    .action(async (opts: OutputOptions) => {
      try {
        const sets = await withDb((db) => listHeldOutSets(db));
        emit(opts, sets, (s) =>
          s.length === 0 ? 'no held-out sets' : table([['SET', 'VERSIONS', 'LINEAGES'], ...s.map((x) => [x.set, String(x.versions), String(x.lineages)])]),
        );
      } catch (err) {
        fail(opts, err);
      }
    });
}

function evalReport(r: EvalReport): string {
  const rows = r.versions.map((v) => [
    shortId(v.versionId),
    v.name,
    `${v.passes}/${v.size}`,
    String(v.timeouts),
    String(v.errors),
    v.imageIds.map((id) => shortId(id)).join(','),
  ]);
  return [
    table([['VERSION', 'NAME', 'PASSED', 'TIMEOUTS', 'ERRORS', 'IMAGE'], ...rows]),
    `${r.policy} ${r.policyVersion}${r.simulated ? ' (simulated policy)' : ''} on "${r.set}": ${r.passes}/${r.rollouts} passed` +
      (r.passRate === null ? '' : ` (${(r.passRate * 100).toFixed(1)}%)`),
  ].join('\n');
}

function registerEval(program: Command): void {
  program
    .command('eval')
    .argument('<set>', 'held-out set name')
    .description('run a policy over a held-out set and report its pass rate, per version and image')
    .option('--policy <name>', 'oracle | nop | simulated | anthropic | openai', 'simulated')
    .option('--attempts <n>', 'rollouts per version', '8')
    .option('--concurrency <n>', 'rollouts at once', '2')
    .option('--pass-threshold <r>', 'a rollout passes at this reward or more', '1')
    .option('--json', 'print one JSON document')
    .action(async (set: string, opts: OutputOptions & { policy: string; attempts: string; concurrency: string; passThreshold: string }) => {
      try {
        checkSetName(set);
        const attempts = positiveInt(opts.attempts, '--attempts');
        const concurrency = positiveInt(opts.concurrency, '--concurrency');
        const passThreshold = fraction(opts.passThreshold, '--pass-threshold');
        const policy = policyNamed(opts.policy);
        const report = await withDb(async (db) =>
          evaluateHeldOutSet({ db, sandbox: await openSandbox() }, { set, policy, attempts, concurrency, passThreshold, progress }),
        );
        emit(opts, report, evalReport);
      } catch (err) {
        fail(opts, err);
      }
    });
}

export function registerSchedulerCommands(program: Command): void {
  registerProbe(program);
  registerSchedule(program);
  registerLineageGate(program);
  registerHeldOut(program);
  registerEval(program);
}
