// One step of a sequence rendered into task content: its datasets, its section of instruction.md,
// its fragment of solve.sh and its expected answer. A dependent step either computes with its
// upstream answer (a threshold read from the earlier output file, over one dataset drawn around
// it) or gets one dataset per candidate value of its upstream answers, where only the candidate
// named by the true answers holds the data its expected answer is computed from. Either way the
// chain must be solved in order.
import type { Step } from '../../sequence/index.ts';
import { misfit, scenarioNamed, skillNamed } from './catalogue.ts';
import { generateRecords } from './records.ts';
import { SCENARIOS } from './scenarios/index.ts';
import { createRng, hashSeed, type Rng } from './rng.ts';
import type { DataFile, NearMiss, Skill, StepParams } from './skill.ts';
import { skillNearMisses } from './near-misses.ts';
import type { ComposedScenario, NoiseShape } from './compose.ts';
import { DELIVERY, type DeliveryShape } from './delivery.ts';
import type { ArtifactProbe } from './artifact-probe.ts';

export interface RenderedDataset {
  dir: string; // under environment/data/ and /app/data/
  files: DataFile[];
  build?: string;
}

export interface RenderedStep {
  step: Step;
  datasets: RenderedDataset[];
  instruction: string; // the body of the step's section, without its heading
  solve: string;
  answer: string;
  nearMisses: NearMiss[]; // complete step fragments like `solve`, each with one typical mistake
  parentQuestion: NearMiss | null; // the step over every row, its domain's rule ignored (null where no rule applies)
}

export const outputPath = (stepId: string): string => `/app/out/${stepId}.txt`;

// The token a downstream step selects its data by: the first word of the first line.
export function handleOf(answer: string): string {
  const token = answer.split('\n')[0]?.trim().split(/\s+/)[0] ?? '';
  if (!/^[A-Za-z0-9._:@=-]+$/.test(token)) throw new Error(`answer "${answer}" has no path-safe first token to chain on`);
  return token;
}

// Every entity, category and text a scenario can name, drawn once: a decoy for an upstream answer
// that is one of them is another of them.
let vocabularies: Array<Set<string>> | undefined;
function vocabularyOf(token: string): string[] | undefined {
  vocabularies ??= SCENARIOS.flatMap((scenario) => {
    const keys = new Set<string>();
    for (let i = 0; i < 40; i++) for (const key of scenario.makeKeys(createRng(hashSeed('vocabulary', scenario.name, i)))) keys.add(key);
    return [keys, new Set(scenario.categories), new Set(scenario.texts)];
  });
  const found = vocabularies.find((words) => words.has(token) && words.size > 2);
  return found && [...found].filter((word) => word !== token).sort();
}

// Another value of the same shape: a number near it (an off-by-a-little total or count), or the
// same name with its last run of digits drawn again (another account, contig, chunk or address).
function sameShape(token: string, rng: Rng): string {
  const number = /^(-?)(\d+)(?:\.(\d+))?$/.exec(token);
  if (number) {
    const decimals = number[3]?.length ?? 0;
    const units = Math.round(Number(token) * 10 ** decimals);
    const step = decimals === 0 ? rng.int(1, 3) : rng.int(1, 5_000);
    const moved = units + (rng.next() < 0.5 && units - step >= 0 ? -step : step);
    return (moved / 10 ** decimals).toFixed(decimals);
  }
  const digits = /(\d+)(\D*)$/.exec(token);
  if (digits) {
    const run = digits[1]!;
    // Differing in two digits where there are two: one changed digit reads as a typo, not an id.
    const changed = (other: string) => [...other].filter((ch, i) => ch !== run[i]).length;
    let redrawn = run;
    for (let attempt = 0; attempt < 20 && changed(redrawn) < Math.min(2, run.length); attempt++)
      redrawn = String(rng.int(run.length === 1 ? 1 : 10 ** (run.length - 1), 10 ** run.length - 1)).padStart(run.length, '0');
    return token.slice(0, digits.index) + redrawn + digits[2];
  }
  // Letters only: the same pattern of upper and lower case after the first character.
  return [...token]
    .map((ch, i) =>
      i === 0 ? ch : /[A-Z]/.test(ch) ? String.fromCharCode(65 + rng.int(0, 25)) : /[a-z]/.test(ch) ? String.fromCharCode(97 + rng.int(0, 25)) : ch,
    )
    .join('');
}

/**
 * Plausible wrong answers of the upstream question, so a candidate directory cannot be told from
 * the true one by its name: other entities, categories or texts of the same scenario when the
 * answer is one, otherwise values of the same shape (a nearby number, another id). A joined
 * handle (the parts joined with `_`, one per upstream answer) gets decoys that change one part.
 */
export function decoysOf(parts: readonly string[], rng: Rng, count: number): string[] {
  const handle = parts.join('_');
  const decoys = new Set<string>();
  for (let attempt = 0; decoys.size < count && attempt < 100; attempt++) {
    const at = attempt % parts.length;
    const part = parts[at]!;
    const others = vocabularyOf(part);
    const replacement = others ? rng.pick(others) : sameShape(part, rng);
    const decoy = [...parts.slice(0, at), replacement, ...parts.slice(at + 1)].join('_');
    if (decoy !== handle) decoys.add(decoy);
  }
  return [...decoys];
}

// `probes` holds, per imported step, how its output file is read: a step depending on one picks
// its data by the probe's value instead of by an answer file in /app/out/.
export function renderStep(
  step: Step,
  seed: number,
  answers: ReadonlyMap<string, string>,
  probes: ReadonlyMap<string, ArtifactProbe> = new Map(),
  variant = 0,
): RenderedStep {
  const setup = stepSetup(step, seed, variant);
  const { scenario, skill, delivery, exportNoise, stepRng, keys, params } = setup;

  const handles = step.dependsOn.map((id) => {
    const answer = answers.get(id);
    if (answer === undefined) throw new Error(`step ${step.id} depends on ${id}, which is not an earlier step`);
    return handleOf(answer);
  });
  const base = `/app/data/${step.id}`;
  const out = outputPath(step.id);
  const probed = step.dependsOn.filter((id) => probes.has(id));
  if (probed.length > 0 && step.dependsOn.length > 1)
    throw new Error(`step ${step.id} depends on the imported step ${probed[0]} and on others; it may depend on it alone`);
  const probe = probed.length > 0 ? probes.get(probed[0]!)! : undefined;
  // A step that computes with its upstream answer reads it at run time; its data is one directory,
  // so no folder name gives anything away. Any other dependent step picks its folder by the answer.
  const threshold = skill.computesWithUpstream ? upstreamInteger(step, handles, probe !== undefined) : undefined;
  const upstream = threshold === undefined ? handles : [];
  const chosen = upstream.join('_');
  const candidates = upstream.length === 0 ? [''] : [chosen, ...decoysOf(upstream, stepRng, 2)].sort();

  let answer = '';
  const datasets = candidates.map((candidate) => {
    // Data of a computing step is drawn anew for every upstream value, as a folder's is for its candidate.
    const dataKey = threshold === undefined ? candidate : `upstream=${threshold}`;
    const rng = createRng(hashSeed(seed, step.id, step.scenario, step.skill, 'data', dataKey, ...variantSalt(variant)));
    const [fewest, most] = RECORD_COUNTS[variant % RECORD_COUNTS.length]!;
    const records = generateRecords(rng, {
      count: rng.int(fewest, most),
      keys,
      categories: scenario.categories,
      texts: scenario.texts,
      value: scenario.value,
      ensureCategory: params.category,
      ensureKey: params.key,
    });
    const made = skill.materialise({ scenario, params, rng, records, ...(threshold === undefined ? {} : { upstream: threshold }) });
    if (candidate === chosen) answer = made.answer;
    const noisy = exportNoise ? made.files.map((f) => ({ ...f, content: exportNoise.add(f.content) })) : made.files;
    // misfit() keeps deliveries away from skills that build their data, so there is one build at most.
    const { files, build } = delivery ? delivery.deliver(noisy) : { files: noisy, build: made.build };
    return { dir: candidate ? `${step.id}/${candidate}` : step.id, files, build };
  });

  const location = probe
    ? `This step continues from \`${probe.file}\`, which the original task above produces: \`${base}/\` holds one directory per candidate value, and DATA is \`${base}/V/\` where V is ${probe.describe}.`
    : threshold !== undefined
      ? `This step continues from \`${outputPath(step.dependsOn[0]!)}\`: the question below computes with the number written there. The data for this step is in \`${base}/\` (DATA below).`
      : upstream.length === 0
        ? `The data for this step is in \`${base}/\` (DATA below).`
        : `This step continues from ${step.dependsOn.map((id) => `\`${outputPath(id)}\``).join(' and ')}: \`${base}/\` holds one directory per candidate value, and DATA is \`${base}/V/\` where V is the first whitespace-separated word on the first line of ${
            step.dependsOn.length === 1 ? `\`${outputPath(step.dependsOn[0]!)}\`` : `each of those files, joined with \`_\` in that order`
          }.`;
  const n = scenario.nouns;
  const meaning = `Each ${n.record} has ${withArticle(n.key)}, ${withArticle(n.value)}, ${withArticle(n.time)}, ${withArticle(n.category)} and ${withArticle(n.text)}.`;
  const rule = ruleApplies(setup)
    ? ` ${scenario.rule.describe}${scenario.parts.layout === 'native' ? '' : ` In this export the \`${scenario.rule.column}\` column says so.`}`
    : '';
  const format = skill.exportsColumns
    ? `${meaning}${exportNoise ? ` The export files carry noise: ${exportNoise.describe}` : ''}`
    : `${scenario.title} files here use this format: ${scenario.format} ${meaning}${rule}`;
  const task = skill.task(scenario, params).replace(/\bOUT\b/g, `\`${out}\``);
  const instruction = `${location} ${format}${delivery ? ` ${delivery.describe}` : ''}\n\n${task}\n`;

  const select = probe
    ? `d="${base}/$(${probe.read})"`
    : upstream.length === 0
      ? `d=${base}`
      : `d="${base}/${step.dependsOn.map((id) => `$(awk 'NR == 1 { print $1; exit }' ${outputPath(id)})`).join('_')}"`;
  const head = [`# ${step.id}: ${step.skill} over ${step.scenario}`, select];
  const solve = [...head, ...solveLines(step.id, setup)].join('\n');
  const nearMisses = skillNearMisses(skill, scenario, params).map((m) => ({
    ...m,
    solve: [...head, ...solveLines(step.id, setup, { skillSolve: m.solve })].join('\n'),
  }));
  // Not among the near misses the bundle carries: for some skills the rows the rule excludes do not
  // move the answer, so it cannot promise to score 0 everywhere; test/synth/domain-rules.test.ts
  // proves it where they do, and the counter-check runs the parent's real solution on every edit.
  const parentQuestion = domainNearMisses(setup).map((m) => ({ ...m, solve: [...head, m.solve].join('\n') }))[0] ?? null;
  return { step, datasets, instruction, solve, answer, nearMisses, parentQuestion };
}

// The integer answer of the one step a computing step depends on, read as the solution reads it
// (the first word of the first line); anything else is a sequence the renderer cannot build.
function upstreamInteger(step: Step, handles: string[], imported: boolean): number {
  const dependency = step.dependsOn.length === 1 ? step.dependsOn[0]! : null;
  if (!dependency || imported)
    throw new Error(
      `step ${step.id}: ${step.skill} computes with the answer of exactly one earlier procedural step, and it depends on ${step.dependsOn.length === 0 ? 'none' : imported ? 'the imported task' : step.dependsOn.join(', ')}`,
    );
  const handle = handles[0]!;
  if (!/^\d+$/.test(handle))
    throw new Error(`step ${step.id}: ${step.skill} takes a number from the answer of ${dependency}, which begins "${handle}", not an integer`);
  return Number(handle);
}

// The domain rule shapes the answer when the skill reads the scenario's file through `extract`;
// a column export (jq, cut, SQL) is built from the counted records alone, and a skill that
// compares whole files (diff, wc, sha256sum) never asks which rows count.
function ruleApplies({ scenario, skill, params }: StepSetup): boolean {
  return !skill.exportsColumns && /\bextract\b/.test(skill.solve(scenario, params));
}

/**
 * The step's domain near misses, each a drop-in for the lines after `d=`: the parent question
 * (the same computation over every row, the domain rule ignored), which is what a solution
 * carried over from another domain computes.
 */
export function domainNearMisses(setup: StepSetup): NearMiss[] {
  if (!ruleApplies(setup)) return [];
  const rule = setup.scenario.rule;
  return [
    {
      name: 'parent-question',
      why: `counts every row of the file, ignoring the ${setup.scenario.parts.domain} rule (${rule.name}): the question of the parent domain, not this one`,
      solve: solveLines(setup.stepId, setup, { extract: `${setup.scenario.parse} | cut -f1-5` }).join('\n'),
    },
  ];
}

export interface StepSetup {
  stepId: string;
  scenario: ComposedScenario;
  skill: Skill;
  delivery?: DeliveryShape;
  exportNoise?: NoiseShape;
  stepRng: Rng;
  keys: string[];
  params: StepParams;
}

// The step's names resolved and its question's selectors drawn: everything its solution
// fragment depends on, without generating any data.
export function stepSetup(step: Step, seed: number, variant = 0): StepSetup {
  const scenario = scenarioNamed(step.scenario);
  const { skill, delivery: deliveryName } = skillNamed(step.skill);
  const unfit = misfit(step.scenario, step.skill);
  if (unfit) throw new Error(`step ${step.id}: ${unfit}`);
  const stepRng = createRng(hashSeed(seed, step.id, step.scenario, step.skill, ...variantSalt(variant)));
  const keys = scenario.makeKeys(stepRng);
  const params: StepParams = {
    category: stepRng.pick(scenario.categories),
    key: stepRng.pick(keys),
    batch: stepRng.int(2, 3),
    ...(step.dependsOn.length === 1 ? { upstreamFile: outputPath(step.dependsOn[0]!) } : {}),
  };
  return {
    stepId: step.id,
    scenario,
    skill,
    ...(deliveryName === 'plain' ? {} : { delivery: DELIVERY[deliveryName] }),
    // A column export carries the scenario's noise on its own text file; skills that read the
    // scenario's file get it through the scenario's render and extract.
    ...(skill.exportsColumns && scenario.noise ? { exportNoise: scenario.noise } : {}),
    stepRng,
    keys,
    params,
  };
}

// The fragment's lines after its data directory is selected; a near miss replaces the scenario's
// `extract` (it reads the file another way) or the skill's own lines (it computes another way).
function solveLines(
  stepId: string,
  { scenario, skill, delivery, exportNoise, params }: StepSetup,
  { extract = scenario.extract, skillSolve = skill.solve(scenario, params) }: { extract?: string; skillSolve?: string } = {},
): string[] {
  return [
    `out=${outputPath(stepId)}`,
    `extract() { ${extract}; }`,
    ...(delivery ? delivery.restore : []),
    ...(exportNoise ? [`src="$d"; d=$(mktemp -d)`, `for f in "$src"/*; do ${exportNoise.clean} < "$f" > "$d/\${f##*/}"; done`] : []),
    skillSolve,
  ];
}

/** The working part of a step's solution fragment (after `d=`), as the renderer writes it for (id, names, seed). */
export function solveBody(step: Step, seed: number, variant = 0): string {
  return solveLines(step.id, stepSetup(step, seed, variant)).join('\n');
}

// A step's construction variant (0 = as first built): a retry rebuilds the step a validator named
// with another variant, which draws another question (selectors) over another data shape (record
// count range) from the same lineage seed. Variant 0 adds nothing, so first builds are unchanged.
const RECORD_COUNTS: readonly [number, number][] = [
  [40, 60],
  [12, 24],
  [80, 120],
];
const variantSalt = (variant: number): Array<string | number> => (variant === 0 ? [] : ['variant', variant]);

// "an event", "an HTTP status", "an SKU", but "a user".
function withArticle(noun: string): string {
  return `${/^(?:[aeio]|u(?!s)|HTTP|SKU)/i.test(noun) ? 'an' : 'a'} ${noun}`;
}
