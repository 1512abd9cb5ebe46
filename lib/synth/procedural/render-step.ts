// One step of a sequence rendered into task content: its datasets, its section of instruction.md,
// its fragment of solve.sh and its expected answer. A dependent step gets one dataset per
// candidate value of its upstream answers; only the candidate named by the true answers holds the
// data its expected answer is computed from, so the chain must be solved in order.
import type { Step } from '../../sequence/index.ts';
import { misfit, scenarioNamed, skillNamed } from './catalogue.ts';
import { generateRecords } from './records.ts';
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
  // Complete step fragments like `solve`, each with one typical mistake; every one must answer wrongly.
  nearMisses: NearMiss[];
}

export const outputPath = (stepId: string): string => `/app/out/${stepId}.txt`;

// The token a downstream step selects its data by: the first word of the first line.
export function handleOf(answer: string): string {
  const token = answer.split('\n')[0]?.trim().split(/\s+/)[0] ?? '';
  if (!/^[A-Za-z0-9._:@=-]+$/.test(token)) throw new Error(`answer "${answer}" has no path-safe first token to chain on`);
  return token;
}

// Plausible wrong values: the same token with its last letter or digit changed, so a decoy
// directory looks like an answer but is not this one.
export function decoysOf(handle: string, rng: Rng, count: number): string[] {
  const decoys = new Set<string>();
  const positions = [...handle].flatMap((ch, i) => (/[A-Za-z0-9]/.test(ch) ? [i] : []));
  for (let attempt = 0; decoys.size < count && attempt < 100; attempt++) {
    const at = positions[positions.length - 1 - (attempt % Math.min(2, positions.length))]!;
    const ch = handle[at]!;
    const alphabet = /[0-9]/.test(ch) ? '0123456789' : /[a-z]/.test(ch) ? 'abcdefghijklmnopqrstuvwxyz' : 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const replacement = rng.pick([...alphabet].filter((c) => c !== ch));
    const decoy = handle.slice(0, at) + replacement + handle.slice(at + 1);
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

  const upstream = step.dependsOn.map((id) => {
    const answer = answers.get(id);
    if (answer === undefined) throw new Error(`step ${step.id} depends on ${id}, which is not an earlier step`);
    return handleOf(answer);
  });
  const chosen = upstream.join('_');
  const candidates = upstream.length === 0 ? [''] : [chosen, ...decoysOf(chosen, stepRng, 2)].sort();

  let answer = '';
  const datasets = candidates.map((candidate) => {
    const rng = createRng(hashSeed(seed, step.id, step.scenario, step.skill, 'data', candidate, ...variantSalt(variant)));
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
    const made = skill.materialise({ scenario, params, rng, records });
    if (candidate === chosen) answer = made.answer;
    const noisy = exportNoise ? made.files.map((f) => ({ ...f, content: exportNoise.add(f.content) })) : made.files;
    // misfit() keeps deliveries away from skills that build their data, so there is one build at most.
    const { files, build } = delivery ? delivery.deliver(noisy) : { files: noisy, build: made.build };
    return { dir: candidate ? `${step.id}/${candidate}` : step.id, files, build };
  });

  const base = `/app/data/${step.id}`;
  const out = outputPath(step.id);
  const probed = step.dependsOn.filter((id) => probes.has(id));
  if (probed.length > 0 && step.dependsOn.length > 1)
    throw new Error(`step ${step.id} depends on the imported step ${probed[0]} and on others; it may depend on it alone`);
  const probe = probed.length > 0 ? probes.get(probed[0]!)! : undefined;
  const location = probe
    ? `This step continues from \`${probe.file}\`, which the original task above produces: \`${base}/\` holds one directory per candidate value, and DATA is \`${base}/V/\` where V is ${probe.describe}.`
    : upstream.length === 0
      ? `The data for this step is in \`${base}/\` (DATA below).`
      : `This step continues from ${step.dependsOn.map((id) => `\`${outputPath(id)}\``).join(' and ')}: \`${base}/\` holds one directory per candidate value, and DATA is \`${base}/V/\` where V is the first whitespace-separated word on the first line of ${
          step.dependsOn.length === 1 ? `\`${outputPath(step.dependsOn[0]!)}\`` : `each of those files, joined with \`_\` in that order`
        }.`;
  const n = scenario.nouns;
  const meaning = `Each ${n.record} has ${withArticle(n.key)}, ${withArticle(n.value)}, ${withArticle(n.time)}, ${withArticle(n.category)} and ${withArticle(n.text)}.`;
  const format = skill.exportsColumns
    ? `${meaning}${exportNoise ? ` The export files carry noise: ${exportNoise.describe}` : ''}`
    : `${scenario.title} files here use this format: ${scenario.format} ${meaning}`;
  const task = skill.task(scenario, params).replace(/\bOUT\b/g, `\`${out}\``);
  const instruction = `${location} ${format}${delivery ? ` ${delivery.describe}` : ''}\n\n${task}\n`;

  const select = probe
    ? `d="${base}/$(${probe.read})"`
    : upstream.length === 0
      ? `d=${base}`
      : `d="${base}/${step.dependsOn.map((id) => `$(awk 'NR == 1 { print $1; exit }' ${outputPath(id)})`).join('_')}"`;
  const head = [`# ${step.id}: ${step.skill} over ${step.scenario}`, select];
  const solve = [...head, ...solveLines(step.id, setup)].join('\n');
  const nearMisses = skillNearMisses(skill, scenario, params).map((m) => ({ ...m, solve: [...head, ...solveLines(step.id, setup, m.solve)].join('\n') }));
  return { step, datasets, instruction, solve, answer, nearMisses };
}

interface StepSetup {
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
function stepSetup(step: Step, seed: number, variant: number): StepSetup {
  const scenario = scenarioNamed(step.scenario);
  const { skill, delivery: deliveryName } = skillNamed(step.skill);
  const unfit = misfit(step.scenario, step.skill);
  if (unfit) throw new Error(`step ${step.id}: ${unfit}`);
  const stepRng = createRng(hashSeed(seed, step.id, step.scenario, step.skill, ...variantSalt(variant)));
  const keys = scenario.makeKeys(stepRng);
  const params: StepParams = { category: stepRng.pick(scenario.categories), key: stepRng.pick(keys), batch: stepRng.int(2, 3) };
  return {
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

// The fragment's lines after its data directory is selected.
function solveLines(stepId: string, { scenario, skill, delivery, exportNoise, params }: StepSetup, skillSolve = skill.solve(scenario, params)): string[] {
  return [
    `out=${outputPath(stepId)}`,
    `extract() { ${scenario.extract}; }`,
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
