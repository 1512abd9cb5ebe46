// `envolve lineage show`, `envolve lineage sandbox-runtime`, `envolve lineage build-mirrors` and
// `envolve lineage priors`: a lineage's report with its release gate and seed funnel, the runtime
// its sandbox uses, the package mirrors its builds go through and the reference priors its D is
// measured under (audited; the CLI acts as its operating-system user).
import { userInfo } from 'node:os';
import path from 'node:path';
import { Option, type Command } from 'commander';
import {
  lineageBuildMirrorsPatchSchema,
  lineagePriors,
  lineageReport,
  lineageSeedFunnel,
  lineageSandboxRuntime,
  lineageSandboxRuntimePatchSchema,
  setLineageBuildMirrors,
  setLineagePriors,
  setLineageSandboxRuntime,
  SHIPPED_PRIORS,
  type LineageBuildMirrorsPatch,
  type LineageReport,
  type LineageSeedFunnel,
} from '../../lib/evolution/index.ts';
import {
  describeBuildMirrors,
  resolveBuildMirrors,
  shownBuildMirrors,
  type BuildMirrors,
  describeSandboxRuntime,
  isSandboxRuntime,
  SANDBOX_RUNTIMES,
} from '../../lib/sandbox/index.ts';
import { lineageGateStatus, schedulerConfigFrom, type LineageGateStatus } from '../../lib/scheduler/index.ts';
import { settings } from '../../lib/config/index.ts';
import { withDb } from '../context.ts';
import { emit, fail, type OutputOptions } from '../output.ts';
import { lineageSummary } from './evolve.ts';

const DEFAULT_WORD = 'default';
const operator = () => ({ id: null, email: `cli:${userInfo().username}` });

type LineageShown = LineageReport & { gate: LineageGateStatus; seedFunnel: LineageSeedFunnel | null };

// The report, then the gate and the seed funnel as the lineage page computes them.
async function lineageShown(lineageId: string): Promise<LineageShown> {
  const config = schedulerConfigFrom(settings().scheduler);
  return withDb(async (db) => {
    const report = await lineageReport(db, lineageId);
    const [gate, seedFunnel] = await Promise.all([lineageGateStatus(db, lineageId, config), lineageSeedFunnel(db, lineageId, config)]);
    return { ...report, gate, seedFunnel };
  });
}

function gateLines({ gate, seedFunnel }: LineageShown): string[] {
  const { policy } = gate.rule;
  const version = gate.groups.source === 'trainer' ? 'checkpoint' : 'model version';
  const newest = gate.newestCheckpoint
    ? `${gate.newestCheckpoint.version || '(no version)'} (first reported ${gate.newestCheckpoint.firstReported}; only its groups count)`
    : `none yet (no complete ${policy} group)`;
  const override = seedFunnel?.override;
  return [
    `release gate: ${gate.description}`,
    `newest ${policy} ${version}: ${newest}`,
    `frontier: generation ${gate.frontier}${gate.frontier === 0 ? ' (the seed)' : ''}; the next release waits for: ${gate.waits.frontier ?? '–'}`,
    ...gate.waits.generations.map((w) => `  generation ${w.generation} waits: ${w.reason}`),
    ...(seedFunnel ? [`seed funnel (${seedFunnel.verdict.kind}): ${seedFunnel.verdict.message}`] : []),
    override
      ? `seed funnel override${override.demoMode ? ' (demo mode)' : ''}: by ${override.by} at ${override.at}: "${override.reason}" (the funnel then said: ${override.verdict.message})`
      : 'seed funnel override: none recorded',
  ];
}

export function registerLineageCommands(lineage: Command): void {
  lineage
    .command('show')
    .argument('<lineage>', 'lineage id')
    .description(
      'print the lineage: its settings, sandbox runtime, generations, release gate (rule, newest checkpoint, what releases wait for) and seed funnel override',
    )
    .option('--json', 'print one JSON document')
    .action(async (lineageId: string, opts: OutputOptions) => {
      try {
        emit(opts, await lineageShown(lineageId), (shown) => [lineageSummary(shown), ...gateLines(shown)].join('\n'));
      } catch (err) {
        fail(opts, err);
      }
    });
  lineage
    .command('sandbox-runtime')
    .argument('<lineage>', 'lineage id')
    .argument('<runtime>', `${SANDBOX_RUNTIMES.join(' | ')} | ${DEFAULT_WORD} (the deployment's ENVOLVE_SANDBOX_RUNTIME)`)
    .description("set the runtime of the lineage's later builds' trials and checks; an environment's task.toml may still require runsc")
    .option('--json', 'print one JSON document')
    .action(async (lineageId: string, runtime: string, opts: OutputOptions) => {
      try {
        if (runtime !== DEFAULT_WORD && !isSandboxRuntime(runtime))
          throw new Error(`the runtime must be ${SANDBOX_RUNTIMES.join(', ')} or ${DEFAULT_WORD}, not '${runtime}'`);
        const patch = lineageSandboxRuntimePatchSchema.parse({ sandboxRuntime: runtime === DEFAULT_WORD ? null : runtime });
        const updated = await withDb((db) => setLineageSandboxRuntime(db, operator(), lineageId, patch));
        const resolved = lineageSandboxRuntime(updated.settings);
        emit(opts, { lineageId, sandboxRuntime: resolved }, () => `lineage ${lineageId}: sandbox runtime ${describeSandboxRuntime(resolved)}`);
      } catch (err) {
        fail(opts, err);
      }
    });
  lineage
    .command('priors')
    .argument('<lineage>', 'lineage id')
    .argument('<table>', `${SHIPPED_PRIORS} (the shipped table) | a fitted version fit-… (envolve priors list)`)
    .description("set the reference priors the lineage's later generations' D is measured under (earlier generations keep the D they were stored with)")
    .option('--json', 'print one JSON document')
    .action(async (lineageId: string, table: string, opts: OutputOptions) => {
      try {
        const priors = await withDb(async (db) => lineagePriors(db, await setLineagePriors(db, operator(), lineageId, { priors: table })));
        emit(
          opts,
          { lineageId, priors: { version: priors.version, fitted: priors.fitted, description: priors.description } },
          () => `lineage ${lineageId}: D measured under ${priors.version} (${priors.description})`,
        );
      } catch (err) {
        fail(opts, err);
      }
    });
  registerBuildMirrorsCommand(lineage);
}

// Each flag and the mirror it sets (`--no-proxy` would read as commander's negation, hence `--proxy-bypass`).
const MIRROR_FLAGS: Array<[flag: string, key: keyof BuildMirrors, what: string]> = [
  ['--pip-index-url <url>', 'pipIndexUrl', 'the Python package index (pip, uv)'],
  ['--pip-find-links <urls>', 'pipFindLinks', 'extra pages or directories of wheels'],
  ['--goproxy <proxies>', 'goProxy', 'the Go module proxy list (GOPROXY)'],
  ['--npm-registry <url>', 'npmRegistry', 'the npm registry'],
  ['--http-proxy <url>', 'httpProxy', 'the HTTP proxy'],
  ['--https-proxy <url>', 'httpsProxy', 'the HTTPS proxy'],
  ['--proxy-bypass <hosts>', 'noProxy', 'hosts reached without the proxy (NO_PROXY)'],
  ['--ca-bundle <file>', 'caBundle', 'a PEM file on this machine the build trusts'],
];

type BuildMirrorsOptions = OutputOptions & Record<string, string | boolean | undefined> & { clear?: boolean };

function mirrorsFromFlags(opts: BuildMirrorsOptions): Record<string, string> | null {
  const given: Record<string, string> = {};
  for (const [flag, key] of MIRROR_FLAGS) {
    const value = opts[new Option(flag).attributeName()];
    if (typeof value === 'string') given[key] = value;
  }
  if (opts.clear) {
    if (Object.keys(given).length) throw new Error('--clear takes no mirror flags: it returns the lineage to the deployment settings');
    return null;
  }
  if (!Object.keys(given).length) throw new Error(`give at least one mirror (${MIRROR_FLAGS.map(([f]) => f.split(' ')[0]).join(', ')}) or --clear`);
  // The bundle is read at each build, wherever the command ran from.
  if (given.caBundle) given.caBundle = path.resolve(given.caBundle);
  return given;
}

// A refused value is named by its flag, as a refused setting is named by its variable.
function parseMirrorsPatch(buildMirrors: Record<string, string> | null): LineageBuildMirrorsPatch {
  const parsed = lineageBuildMirrorsPatchSchema.safeParse({ buildMirrors });
  if (parsed.success) return parsed.data;
  const flagOf = (key: PropertyKey | undefined) => MIRROR_FLAGS.find(([, k]) => k === key)?.[0].split(' ')[0];
  throw new Error(parsed.error.issues.map((i) => `${flagOf(i.path[1]) ?? 'build mirrors'}: ${i.message}`).join('; '));
}

function registerBuildMirrorsCommand(lineage: Command): void {
  const command = lineage
    .command('build-mirrors')
    .argument('<lineage>', 'lineage id')
    .description(
      "set the package mirrors every later build on the lineage's behalf goes through, replacing the deployment's ENVOLVE_BUILD_* settings as a whole",
    )
    .option('--clear', "back to the deployment's ENVOLVE_BUILD_* settings")
    .option('--json', 'print one JSON document');
  for (const [flag, , what] of MIRROR_FLAGS) command.option(flag, what);
  command.action(async (lineageId: string, opts: BuildMirrorsOptions) => {
    try {
      const patch = parseMirrorsPatch(mirrorsFromFlags(opts));
      const updated = await withDb((db) => setLineageBuildMirrors(db, operator(), lineageId, patch));
      const shown = shownBuildMirrors(resolveBuildMirrors(updated.settings.buildMirrors));
      emit(opts, { lineageId, buildMirrors: shown }, () => `lineage ${lineageId}: build mirrors ${describeBuildMirrors(shown)}`);
    } catch (err) {
      fail(opts, err);
    }
  });
}
