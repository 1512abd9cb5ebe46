// `envolve calibration create|list|metrics|export|rescore`: thin over lib/calibration. The
// command line acts as the operator for the audit log.
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import {
  calibrationVerifierStatus,
  createCalibrationSet,
  describeScope,
  exportCalibration,
  listCalibrationSets,
  rescoreSet,
  setMetrics,
  type CalibrationScope,
  type Estimate,
  type Rate,
  type VerifierScore,
} from '../../lib/calibration/index.ts';
import type { Db } from '../../lib/db/index.ts';
import { resolveVersionId } from '../../lib/env/index.ts';
import { openSandbox, withDb } from '../context.ts';
import { baseImagesFrom, withBaseImageFlags } from '../flags.ts';
import { emit, fail, progress, shortId, table, type OutputOptions } from '../output.ts';

type Opts = OutputOptions & Record<string, string | boolean | undefined>;

const operator = () => ({ id: null, email: `cli:${userInfo().username}` });

async function guard(opts: OutputOptions, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    fail(opts, err);
  }
}

function integer(value: string | boolean | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new Error(`${flag} must be an integer, got '${String(value)}'`);
  return n;
}

function number(value: string | boolean | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`${flag} must be a number, got '${String(value)}'`);
  return n;
}

const list = (value: string | boolean | undefined) =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

async function scopeFrom(db: Db, opts: Opts): Promise<CalibrationScope> {
  if (opts.lineage && opts.versions) throw new Error('give either --lineage or --versions, not both');
  if (opts.lineage) {
    return {
      kind: 'lineage',
      lineageId: String(opts.lineage),
      fromGeneration: integer(opts.fromGeneration, '--from-generation'),
      toGeneration: integer(opts.toGeneration, '--to-generation'),
    };
  }
  if (opts.versions) return { kind: 'versions', versionIds: await Promise.all(list(opts.versions).map((v) => resolveVersionId(db, v))) };
  throw new Error('give the scope: --lineage ID [--from-generation N] [--to-generation N], or --versions ID,ID');
}

const pct = (r: Rate) =>
  r.value === null
    ? `– (${r.reason})`
    : `${(r.value * 100).toFixed(1)}% [${(r.ci95.low * 100).toFixed(1)}–${(r.ci95.high * 100).toFixed(1)}] (${r.numerator}/${r.denominator})`;

const est = (e: Estimate) =>
  e.value === null ? `– (${e.reason})` : `${(e.value * 100).toFixed(1)}% [${(e.ci95.low * 100).toFixed(1)}–${(e.ci95.high * 100).toFixed(1)}]`;

// Population estimates (the headline, weighted by the design) beside the sample's tallies.
function scoreLines(title: string, s: VerifierScore): string[] {
  const m = s.metrics;
  const p = s.population;
  const kappa =
    p.kappa.value === null ? `– (${p.kappa.reason})` : `${p.kappa.value.toFixed(3)} [${p.kappa.ci95.low.toFixed(3)}–${p.kappa.ci95.high.toFixed(3)}]`;
  return [
    `${title} ${shortId(s.verifierVersion)}: ${s.verdict.verdict} — ${s.verdict.reasons.join('; ')}`,
    `  design               ${p.design}; ${p.strata.map((st) => `verifier ${st.stratum}: ${st.scored} labelled of N = ${st.population ?? 'not recorded'}`).join('; ')}`,
    `                       estimate (weighted, 95% interval)   sample tally`,
    `  false-positive rate  ${est(p.falsePositiveRate).padEnd(36)}${pct(m.falsePositiveRate)}`,
    `  false-negative rate  ${est(p.falseNegativeRate).padEnd(36)}${pct(m.falseNegativeRate)}`,
    `  agreement            ${est(p.agreement).padEnd(36)}${pct(m.agreement)}`,
    `  Cohen's κ            ${kappa.padEnd(36)}${m.kappa.value === null ? `– (${m.kappa.reason})` : m.kappa.value.toFixed(3)}`,
    `  precision            ${pct(m.precision)} (within the verifier-pass stratum)`,
    `  confusion            TP ${m.confusion.tp}  FP ${m.confusion.fp}  FN ${m.confusion.fn}  TN ${m.confusion.tn}  (unsure excluded: ${m.unsure})`,
  ];
}

function badDesign(value: unknown): never {
  throw new Error(`--design must be stratified or random, not '${String(value)}'`);
}

export function registerCalibrationCommands(program: Command): void {
  const calibration = program.command('calibration').description('calibration sets: blind human labels against the verifier');
  calibration
    .command('create')
    .description('sample a calibration set, stratified by the verifier verdict (or --design random)')
    .option('--lineage <id>', 'a lineage (generation 0 is its seed)')
    .option('--from-generation <n>', 'first generation of the lineage to include')
    .option('--to-generation <n>', 'last generation of the lineage to include')
    .option('--versions <ids>', 'chosen environment versions, comma-separated (prefixes allowed)')
    .option('--size <n>', 'trajectories in the set', '50')
    .option('--pass-share <x>', 'share sampled from verifier passes (stratified design)', '0.5')
    .option('--design <d>', 'stratified (by verifier verdict) | random (uniform over the scope)', 'stratified')
    .option('--seed <n>', 'random seed of the sampling (default: a random one, recorded)')
    .option('--overlap <n>', 'labels each item needs (default: 2, or 1 with one annotator)')
    .requiredOption('--annotators <emails>', 'annotator emails, comma-separated')
    .option('--name <name>', 'a name for the set')
    .option('--json', 'print one JSON document')
    .action((opts: Opts) =>
      guard(opts, () =>
        withDb(async (db) => {
          const set = await createCalibrationSet(db, operator(), {
            name: opts.name === undefined ? undefined : String(opts.name),
            scope: await scopeFrom(db, opts),
            size: integer(opts.size, '--size'),
            passShare: number(opts.passShare, '--pass-share'),
            design: opts.design === 'random' ? 'random' : opts.design === 'stratified' ? 'stratified' : badDesign(opts.design),
            seed: integer(opts.seed, '--seed'),
            overlap: integer(opts.overlap, '--overlap'),
            annotatorEmails: list(opts.annotators),
          });
          emit(opts, set, (s) =>
            [
              `created calibration set ${s.id} "${s.name}": ${s.size} trajectories (${s.design}: ${s.strata.pass} verifier-passed of ${s.population?.pass}, ${s.strata.fail} verifier-failed of ${s.population?.fail}), seed ${s.seed}`,
              `scope ${describeScope(s.scope)}; overlap ${s.overlap}; annotators ${s.annotators.map((a) => a.email).join(', ')}`,
              `verifier version ${shortId(s.verifierVersion)}`,
            ].join('\n'),
          );
        }),
      ),
    );
  calibration
    .command('list')
    .description('calibration sets with their progress')
    .option('--json', 'print one JSON document')
    .action((opts: Opts) =>
      guard(opts, () =>
        withDb(async (db) => {
          const sets = await listCalibrationSets(db);
          emit(opts, { sets }, ({ sets }) =>
            table([
              ['ID', 'NAME', 'STATE', 'ITEMS', 'PASS/FAIL', 'OVERLAP', 'LABELS', 'VERIFIER', 'CREATED'],
              ...sets.map((s) => [
                s.id,
                s.name,
                s.state,
                String(s.size),
                `${s.strata.pass}/${s.strata.fail}`,
                String(s.overlap),
                `${s.labels}/${s.labelsNeeded}`,
                shortId(s.verifierVersion),
                s.createdAt.toISOString().slice(0, 16),
              ]),
            ]),
          );
        }),
      ),
    );
  calibration
    .command('metrics')
    .argument('<set>', 'calibration set id')
    .description('the verifier against the final human labels: agreement, κ, FPR and the rates with 95% Wilson intervals')
    .option('--json', 'print one JSON document')
    .action((setId: string, opts: Opts) =>
      guard(opts, () =>
        withDb(async (db) => {
          const [metrics, verifier] = await Promise.all([setMetrics(db, setId), calibrationVerifierStatus(db, setId)]);
          emit(opts, { ...metrics, verifier }, (m) =>
            [
              `${m.finalLabels} of ${m.items} items have a final label (${m.awaitingLabels} awaiting labels, ${m.awaitingAdjudication} awaiting adjudication)`,
              ...scoreLines('recorded verifier', m.recorded),
              ...(m.rescored
                ? [...scoreLines('re-scored verifier', m.rescored), `  ${m.flipped} verdict(s) flipped, ${m.rescored.errors} re-score error(s)`]
                : []),
              m.interAnnotator
                ? `inter-annotator ${m.interAnnotator.method === 'cohen' ? "Cohen's" : "Fleiss'"} κ: ${m.interAnnotator.kappa.value === null ? `– (${m.interAnnotator.kappa.reason})` : m.interAnnotator.kappa.value.toFixed(3)} over ${m.interAnnotator.kappa.items} items`
                : 'inter-annotator κ: no overlap',
              m.verifier.stale
                ? `the tests changed since the set was created: run \`envolve calibration rescore ${setId}\``
                : 'the verifier has not changed since the set was created',
            ].join('\n'),
          );
        }),
      ),
    );
  calibration
    .command('export')
    .argument('<set>', 'calibration set id')
    .description('labels or metrics as CSV or JSONL on stdout')
    .option('--what <what>', 'labels | metrics', 'labels')
    .option('--format <format>', 'csv | jsonl', 'csv')
    .action((setId: string, opts: Opts) =>
      guard(opts, () =>
        withDb(async (db) => {
          const what = String(opts.what);
          const format = String(opts.format);
          if (what !== 'labels' && what !== 'metrics') throw new Error(`--what must be labels or metrics, got '${what}'`);
          if (format !== 'csv' && format !== 'jsonl') throw new Error(`--format must be csv or jsonl, got '${format}'`);
          process.stdout.write(await exportCalibration(db, setId, what, format));
        }),
      ),
    );
  withBaseImageFlags(calibration.command('rescore'))
    .argument('<set>', 'calibration set id')
    .description("re-run the current tests on the set's trajectories (their artifacts replayed in fresh containers)")
    .option('--force', 're-run even when the tests have not changed')
    .option('--json', 'print one JSON document')
    .action((setId: string, opts: Opts) =>
      guard(opts, () =>
        withDb(async (db) => {
          const result = await rescoreSet({
            db,
            sandbox: await openSandbox(),
            setId,
            force: Boolean(opts.force),
            baseImages: baseImagesFrom(opts),
            progress,
          });
          emit(
            opts,
            result,
            (r) =>
              `re-scored ${r.rescored} item(s) under verifier ${shortId(r.verifierVersion)} (${r.skipped} already done, ${r.errors} error(s)); see \`envolve calibration metrics ${setId}\``,
          );
        }),
      ),
    );
}
