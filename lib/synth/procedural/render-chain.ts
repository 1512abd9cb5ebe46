// Lengthening an imported task offline: the seed's files stay as they are (its solution and
// verifier moved aside and still run first), and procedural steps are chained onto what its
// oracle produces. The first chained step picks its data by a probe of the original output file;
// later ones chain on each other as in any procedural task. Expected answers are computed here.
import type { BundleFile, TaskBundle } from '../../bundle/index.ts';
import { comparePaths, NEAR_MISS_DIR } from '../../env/index.ts';
import type { Sequence } from '../../sequence/index.ts';
import { chooseProbe, type OracleArtifact } from './artifact-probe.ts';
import { CHAIN_FILE, renderChainTestScript, SEED_TEST } from './chain-test-script.ts';
import { isImportedStep } from './imported.ts';
import { nearMissFiles } from './near-misses.ts';
import { renderStep, type RenderedStep } from './render-step.ts';
import { createRng, hashSeed } from './rng.ts';

export const CHAIN_GENERATOR = 'envolve-procedural-chain/1';
export const SEED_SOLVE = 'solution/seed_solve.sh';
const DATA_DIR = 'environment/envolve-data';
const DOCKERFILE = 'environment/Dockerfile';
const INSTRUCTION = 'instruction.md';
const DOCKERFILE_MARKER = '# Envolve: data of the steps chained onto this task';
const INSTRUCTION_MARKER = '## Further steps';

// tests/chain.json: the chained steps' expected answers, and what it takes to render them again
// on the next generation (the seed, the sequence, and where the seed's own files end).
export interface ChainFile {
  generator: typeof CHAIN_GENERATOR;
  seed: number;
  sequence: Sequence;
  baseBytes: { dockerfile: number; instruction: number };
  steps: Array<{ id: string; expected: string }>;
}

export interface ChainOptions {
  seed: number;
  name: string;
  artifacts: OracleArtifact[]; // what the seed's oracle wrote
}

export function renderChained(base: TaskBundle, sequence: Sequence, options: ChainOptions): TaskBundle {
  // The original task is its leading imported step(s): one opaque step, or the steps a reviewer
  // described it with. Every one of them stands for what the original oracle writes.
  const leading = sequence.steps.findIndex((s) => !isImportedStep(s));
  const importedSteps = sequence.steps.slice(0, leading === -1 ? sequence.steps.length : leading);
  const chained = sequence.steps.slice(importedSteps.length);
  const imported = importedSteps[0];
  if (!imported) throw new Error('a chained sequence starts with the imported step');
  const stray = chained.find(isImportedStep);
  if (stray) throw new Error(`step ${stray.id} is an imported step after a chained one; the original task's steps come first`);
  if (chained.length === 0) throw new Error('nothing to chain: the sequence has only the imported step');
  for (const path of [SEED_TEST, SEED_SOLVE, CHAIN_FILE]) {
    if (base.files.some((f) => f.path === path)) throw new Error(`the seed already has ${path}, which the chained task needs for itself`);
  }
  for (const dir of [DATA_DIR, NEAR_MISS_DIR]) {
    if (base.files.some((f) => f.path.startsWith(`${dir}/`))) throw new Error(`the seed already has ${dir}/, which the chained task needs for itself`);
  }
  const seedFile = (path: string): BundleFile => {
    const file = base.files.find((f) => f.path === path);
    if (!file) throw new Error(`the seed has no ${path}`);
    return file;
  };

  const probe = chooseProbe(options.artifacts, createRng(hashSeed(options.seed, imported.id, 'artifact')));
  const answers = new Map(importedSteps.map((s) => [s.id, probe.value]));
  const probes = new Map(importedSteps.map((s) => [s.id, probe]));
  const steps = chained.map((step) => {
    const rendered = renderStep(step, options.seed, answers, probes);
    answers.set(step.id, rendered.answer);
    return rendered;
  });

  const dockerfile = seedFile(DOCKERFILE).content.toString('utf8');
  const instruction = seedFile(INSTRUCTION).content.toString('utf8');
  const chain: ChainFile = {
    generator: CHAIN_GENERATOR,
    seed: options.seed,
    sequence,
    baseBytes: { dockerfile: Buffer.byteLength(dockerfile), instruction: Buffer.byteLength(instruction) },
    steps: steps.map((s) => ({ id: s.step.id, expected: s.answer })),
  };
  const replaced = new Set([DOCKERFILE, INSTRUCTION, 'solution/solve.sh', 'tests/test.sh']);
  const files: BundleFile[] = [
    ...base.files.filter((f) => !replaced.has(f.path)),
    { ...seedFile('solution/solve.sh'), path: SEED_SOLVE },
    { ...seedFile('tests/test.sh'), path: SEED_TEST },
    text(DOCKERFILE, dockerfile + dockerfileBlock(dockerfile, steps)),
    text(INSTRUCTION, instruction + instructionSection(instruction, steps)),
    ...steps.flatMap((s) =>
      s.datasets.flatMap((d) => [
        ...d.files.map((f) => text(`${DATA_DIR}/${d.dir}/${f.path}`, f.content)),
        ...(d.build ? [text(`${DATA_DIR}/${d.dir}/_build.sh`, d.build)] : []),
      ]),
    ),
    text('solution/solve.sh', solveScript(steps), true),
    ...nearMissFiles(steps, solveScript),
    text('tests/test.sh', renderChainTestScript(), true),
    text(CHAIN_FILE, `${JSON.stringify(chain, null, 2)}\n`),
  ];
  return { name: options.name, files: files.sort((a, b) => comparePaths(a.path, b.path)) };
}

// The seed's files and the chain's settings of a task renderChained made; null for any other task.
export function readChain(bundle: TaskBundle): { base: TaskBundle; chain: ChainFile } | null {
  const file = bundle.files.find((f) => f.path === CHAIN_FILE);
  if (!file) return null;
  const chain = JSON.parse(file.content.toString('utf8')) as ChainFile;
  if (chain.generator !== CHAIN_GENERATOR) return null;
  const byPath = new Map(bundle.files.map((f) => [f.path, f]));
  const cut = (path: string, bytes: number, marker: string): BundleFile => {
    const content = byPath.get(path)?.content;
    if (!content || !content.subarray(bytes).toString('utf8').trimStart().startsWith(marker)) {
      throw new Error(`${path} of ${bundle.name} no longer ends with the chained steps' section; it was edited outside Envolve`);
    }
    return text(path, content.subarray(0, bytes).toString('utf8'));
  };
  const moved = (from: string, to: string): BundleFile => {
    const original = byPath.get(from);
    if (!original) throw new Error(`${bundle.name} has lost ${from}`);
    return { ...original, path: to };
  };
  const derived = new Set([CHAIN_FILE, SEED_TEST, SEED_SOLVE, DOCKERFILE, INSTRUCTION, 'solution/solve.sh', 'tests/test.sh']);
  const files = [
    ...bundle.files.filter((f) => !derived.has(f.path) && !f.path.startsWith(`${DATA_DIR}/`) && !f.path.startsWith(`${NEAR_MISS_DIR}/`)),
    cut(DOCKERFILE, chain.baseBytes.dockerfile, DOCKERFILE_MARKER),
    cut(INSTRUCTION, chain.baseBytes.instruction, INSTRUCTION_MARKER),
    moved(SEED_SOLVE, 'solution/solve.sh'),
    moved(SEED_TEST, 'tests/test.sh'),
  ];
  return { base: { name: bundle.name, files: files.sort((a, b) => comparePaths(a.path, b.path)) }, chain };
}

function text(path: string, content: string, executable = false): BundleFile {
  return { path, content: Buffer.from(content, 'utf8'), executable };
}

const separator = (original: string): string => (original.endsWith('\n') ? '\n' : '\n\n');

// The seed's image is left as it was; the chained data goes in as root and is handed back to the
// user the seed's Dockerfile runs as (its last USER line), who must be able to write /app/out.
function dockerfileBlock(original: string, steps: RenderedStep[]): string {
  const user = [...original.matchAll(/^\s*USER\s+(\S+)/gim)].at(-1)?.[1];
  const builds = steps.flatMap((s) => s.datasets.filter((d) => d.build).map((d) => `cd '/app/data/${d.dir}' && bash _build.sh && rm _build.sh`));
  const handOver = user && user !== 'root' && user !== '0' ? ` && chown -R ${user} /app/data /app/out` : '';
  return [
    `${separator(original)}${DOCKERFILE_MARKER} (see the last section of instruction.md).`,
    ...(user ? ['USER root'] : []),
    'COPY envolve-data /app/data',
    ...(builds.length > 0 ? [`RUN ${builds.join(' \\\n && ')}`] : []),
    `RUN mkdir -p /app/out${handOver}`,
    ...(user ? [`USER ${user}`] : []),
    '',
  ].join('\n');
}

function instructionSection(original: string, steps: RenderedStep[]): string {
  const intro = [
    `${separator(original)}${INSTRUCTION_MARKER}`,
    '',
    `The task above is unchanged and still checked. After it, solve ${steps.length === 1 ? 'the step' : `the ${steps.length} steps`} below. Each step's data is under \`/app/data/\`; each step writes its answer to its own file in \`/app/out/\` (create the directory), exactly in the format the step states; answers are compared exactly, ignoring only trailing whitespace. The steps build on what the task above produces and on each other's answers, so a wrong earlier result also breaks the steps after it. Do not modify the data.`,
    '',
  ];
  // The original task counts as step 1.
  const sections = steps.map((s, i) => `### Step ${i + 2} (\`${s.step.id}\`)\n\n${s.instruction}`);
  return [...intro, ...sections].join('\n');
}

function solveScript(steps: RenderedStep[]): string {
  return [
    '#!/bin/bash',
    "# Reference solution from Envolve's procedural synthesiser for a lengthened imported task: the",
    '# original solution first, from the same directory, then one fragment per chained step, each',
    '# reading its data (and what it depends on) at run time and writing /app/out/<step>.txt.',
    'set -euo pipefail',
    `bash /${SEED_SOLVE}`,
    'export LC_ALL=C',
    'mkdir -p /app/out',
    '',
    steps.map((s) => s.solve).join('\n\n'),
    '',
  ].join('\n');
}
