// `envolve priors fit|show|list`: reference priors fitted from a corpus of environments, thin over
// lib/difficulty/fit.ts (the estimate), lib/evolution/priors-corpus.ts (the corpus) and
// lib/difficulty/fitted-store.ts (the versions).
import type { Command } from 'commander';
import { z } from 'zod';
import {
  DEFAULT_FIT_OPTIONS,
  fitPriors,
  listFittedPriors,
  loadFittedPriors,
  pairKey,
  REFERENCE_TABLE,
  scenarioParts,
  composeScenario,
  storeFittedPriors,
  tablePriors,
  type FittedPriors,
  type ReferenceTable,
} from '../../lib/difficulty/index.ts';
import { readPriorsCorpus } from '../../lib/evolution/index.ts';
import { misfit } from '../../lib/synth/index.ts';
import { withDb } from '../context.ts';
import { emit, fail, table, type OutputOptions } from '../output.ts';

const fitOptionsSchema = z.object({
  strength: z.coerce.number().positive('--strength must be a positive number'),
  turnsStrength: z.coerce.number().positive('--turns-strength must be a positive number'),
  turnsPolicy: z.string().min(1).optional(),
});

type FitOpts = OutputOptions & { strength: string; turnsStrength: string; turnsPolicy?: string };

export function registerPriorsCommands(program: Command): void {
  const priors = program.command('priors').description('reference priors of off-policy difficulty: fit them from a seed pool, show a fitted version');
  priors
    .command('fit')
    .description(
      'fit p(scenario), p(skill | scenario) and turns per pair from the described sequences of the environments under PATHS, store them as a new version',
    )
    .argument('[paths...]', 'task directories or collections (default: examples/tasks)')
    .option('--strength <n>', 'α: pseudo-observations of the base reference per distribution', String(DEFAULT_FIT_OPTIONS.strength))
    .option('--turns-strength <n>', "γ: pseudo-environments at the base's turns per pair", String(DEFAULT_FIT_OPTIONS.turnsStrength))
    .option('--turns-policy <policy>', "fit turns from this policy's completed rollouts of each environment (default: no turns observed)")
    .option('--json', 'print one JSON document')
    .action(async (paths: string[], opts: FitOpts) => {
      try {
        const options = fitOptionsSchema.parse(opts);
        await withDb(async (db) => {
          const corpus = await readPriorsCorpus(db, paths.length > 0 ? paths : ['examples/tasks'], options.turnsPolicy);
          const fitted = fitPriors(corpus.environments, REFERENCE_TABLE, { strength: options.strength, turnsStrength: options.turnsStrength });
          const { created } = await storeFittedPriors(db, fitted);
          emit(opts, { version: fitted.table.version, created, provenance: fitted.provenance, skipped: corpus.skipped, summary: summarise(fitted) }, (r) =>
            [
              `${r.created ? 'stored' : 'already stored'}: reference ${r.version}`,
              ...r.skipped.map((s) => `skipped ${s.name}: ${s.reason}`),
              describe(fitted),
            ].join('\n'),
          );
        });
      } catch (err) {
        fail(opts, err);
      }
    });
  priors
    .command('show')
    .description('a fitted reference version: its provenance and the fitted numbers for the names its corpus holds')
    .argument('<version>')
    .option('--json', 'print one JSON document')
    .action(async (version: string, opts: OutputOptions) => {
      try {
        await withDb(async (db) => {
          const fitted = await loadFittedPriors(db, version);
          if (!fitted) throw new Error(`reference ${version} not found (envolve priors list shows the fitted versions)`);
          emit(opts, { version, createdAt: fitted.createdAt, provenance: fitted.provenance, summary: summarise(fitted) }, () => describe(fitted));
        });
      } catch (err) {
        fail(opts, err);
      }
    });
  priors
    .command('list')
    .description('the fitted reference versions, newest first')
    .option('--json', 'print one JSON document')
    .action(async (opts: OutputOptions) => {
      try {
        await withDb(async (db) => {
          const rows = await listFittedPriors(db);
          emit(opts, rows, (list) =>
            list.length === 0
              ? 'no fitted reference yet (envolve priors fit)'
              : table([
                  ['VERSION', 'BASE', 'ENVIRONMENTS', 'STEPS', 'WITH TURNS', 'CREATED'],
                  ...list.map((r) => [
                    r.version,
                    r.provenance.base,
                    String(r.provenance.counts.environments),
                    String(r.provenance.counts.steps),
                    String(r.provenance.counts.withTurns),
                    r.createdAt.toISOString(),
                  ]),
                ]),
          );
        });
      } catch (err) {
        fail(opts, err);
      }
    });
}

interface PairSummary {
  scenario: string;
  skill: string;
  pScenario: [number, number]; // [base, fitted]
  pSkill: [number, number];
  turns: [number, number];
}

// Per (scenario, skill) pair of the corpus: the base's numbers beside the fitted ones, and what a
// scenario edit to the same domain with CRLF noise would do to the pair's expected turns.
function summarise({ table: fitted, provenance }: FittedPriors) {
  const base = tablePriors(REFERENCE_TABLE);
  const now = tablePriors(fitted);
  const pairs: PairSummary[] = [...fitted.pairTurns.keys()].map((key) => {
    const [scenario, skill] = key.split('\u0000') as [string, string];
    return {
      scenario,
      skill,
      pScenario: [base.scenario(scenario).p, now.scenario(scenario).p],
      pSkill: [base.skill(skill, scenario).p, now.skill(skill, scenario).p],
      turns: [base.turns(skill, scenario), now.turns(skill, scenario)],
    };
  });
  // An edit the procedural synthesiser can build: the same domain with CRLF line endings.
  const withNoise = (scenario: string) => composeScenario({ ...scenarioParts(scenario)!, noise: 'crlf' });
  const first = pairs.find((p) => scenarioParts(p.scenario)?.noise === 'clean' && misfit(withNoise(p.scenario), p.skill) === null);
  const edit = first && scenarioEdit(fitted, first.scenario, first.skill);
  return { base: provenance.base, counts: provenance.counts, options: provenance.options, pairs, scenarioEdit: edit ?? null };
}

function scenarioEdit(fitted: ReferenceTable, scenario: string, skill: string) {
  const parts = scenarioParts(scenario)!;
  const to = composeScenario({ ...parts, noise: 'crlf' });
  const priors = tablePriors(fitted);
  return {
    skill,
    from: scenario,
    to,
    turnsBefore: priors.turns(skill, scenario),
    turnsAfter: priors.turns(skill, to),
    fittedPair: fitted.pairTurns.has(pairKey(scenario, skill)),
  };
}

function describe(fitted: FittedPriors): string {
  const s = summarise(fitted);
  const p = (x: number) => x.toPrecision(3);
  const lines = [
    `reference ${fitted.table.version}: ${fitted.table.provenance ?? ''}`,
    `method: ${fitted.provenance.method}; α=${s.options.strength}, γ=${s.options.turnsStrength}`,
    `corpus: ${fitted.provenance.corpus.map((e) => `${e.name} (${e.steps} steps, ${e.versionId.slice(0, 12)}${e.observedTurns ? `, ${e.observedTurns.mean.toFixed(1)} turns over ${e.observedTurns.rollouts} ${e.observedTurns.policy} rollouts` : ', no rollouts'})`).join('; ')}`,
    '',
    table([
      ['SCENARIO', 'SKILL', `p(σ) ${s.base}`, 'p(σ) fitted', `p(κ|σ) ${s.base}`, 'p(κ|σ) fitted', `TURNS ${s.base}`, 'TURNS fitted'],
      ...s.pairs.map((r) => [
        r.scenario,
        r.skill,
        p(r.pScenario[0]),
        p(r.pScenario[1]),
        p(r.pSkill[0]),
        p(r.pSkill[1]),
        r.turns[0].toFixed(2),
        r.turns[1].toFixed(2),
      ]),
    ]),
  ];
  if (s.scenarioEdit) {
    const e = s.scenarioEdit;
    lines.push(
      '',
      `scenario edit ${e.from} → ${e.to} (skill ${e.skill}): expected turns ${e.turnsBefore.toFixed(2)} → ${e.turnsAfter.toFixed(2)} under ${fitted.table.version}`,
    );
  }
  return lines.join('\n');
}
