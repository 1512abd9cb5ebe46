// renderEnvironment: a scenario–skill sequence plus a seed → a complete Harbor task bundle.
// Pure and deterministic: the same (sequence, seed, name, fault) gives byte-identical files.
import type { BundleFile, TaskBundle } from '../../bundle/index.ts';
import { comparePaths } from '../../env/index.ts';
import type { Sequence } from '../../sequence/index.ts';
import { nearMissFiles } from './near-misses.ts';
import { renderStep, type RenderedStep } from './render-step.ts';
import { renderTestScript } from './test-script.ts';

// The marker extractSequence recognises in task.toml's [metadata].
export const GENERATOR = 'envolve-procedural/1';

// Deliberately broken output for validator tests: a solution that computes a wrong answer, or
// tests that pass whatever the agent did.
export type Fault = 'wrong-solution' | 'lenient-tests';

export interface RenderOptions {
  seed: number;
  name: string;
  fault?: Fault;
  variants?: Readonly<Record<string, number>>; // per step id: its construction variant (render-step.ts)
}

export interface RenderedEnvironment {
  bundle: TaskBundle;
  steps: RenderedStep[];
}

export function renderEnvironment(sequence: Sequence, options: RenderOptions): TaskBundle {
  return renderEnvironmentWithSteps(sequence, options).bundle;
}

export function renderEnvironmentWithSteps(sequence: Sequence, options: RenderOptions): RenderedEnvironment {
  if (!Number.isSafeInteger(options.seed)) throw new Error(`seed must be an integer, got ${options.seed}`);
  if (sequence.steps.length === 0) throw new Error('cannot render an empty sequence');
  const answers = new Map<string, string>();
  const steps = sequence.steps.map((step) => {
    const rendered = renderStep(step, options.seed, answers, new Map(), options.variants?.[step.id] ?? 0);
    answers.set(step.id, rendered.answer);
    return rendered;
  });

  const files: BundleFile[] = [
    text('task.toml', taskToml(sequence, options.seed, usedVariants(sequence, options.variants))),
    text('instruction.md', instruction(options.name, steps)),
    text('environment/Dockerfile', dockerfile(steps)),
    ...steps.flatMap((s) =>
      s.datasets.flatMap((d) => [
        ...d.files.map((f) => text(`environment/data/${d.dir}/${f.path}`, f.content)),
        ...(d.build ? [text(`environment/data/${d.dir}/_build.sh`, d.build)] : []),
      ]),
    ),
    text('solution/solve.sh', solveScript(steps, options.fault === 'wrong-solution'), true),
    ...nearMissFiles(steps, (swapped) => solveScript(swapped, false)),
    text('tests/test.sh', renderTestScript(options.fault === 'lenient-tests'), true),
    text('tests/expected.json', `${JSON.stringify({ steps: steps.map((s) => ({ id: s.step.id, expected: s.answer })) }, null, 2)}\n`),
  ];
  return { bundle: { name: options.name, files: files.sort((a, b) => comparePaths(a.path, b.path)) }, steps };
}

function text(path: string, content: string, executable = false): BundleFile {
  return { path, content: Buffer.from(content, 'utf8'), executable };
}

function tomlString(value: string): string {
  return JSON.stringify(value); // a JSON string literal is a valid TOML basic string
}

// The variants of steps still in the sequence, and only those not 0.
function usedVariants(sequence: Sequence, variants: Readonly<Record<string, number>> = {}): Record<string, number> {
  return Object.fromEntries(sequence.steps.flatMap((s) => (variants[s.id] ? [[s.id, variants[s.id]!]] : [])));
}

// The budgets a procedural task gives its trials (seconds): the agent's grows with the steps to do.
export function proceduralBudgets(steps: number): { agentSec: number; verifierSec: number; buildSec: number } {
  return { agentSec: 600 + 300 * steps, verifierSec: 120, buildSec: 300 };
}

function taskToml(sequence: Sequence, seed: number, variants: Record<string, number>): string {
  const names = [...new Set(sequence.steps.flatMap((s) => [s.scenario, s.skill]))];
  const length = sequence.steps.length;
  const budgets = proceduralBudgets(length);
  return [
    'version = "1.0"',
    '',
    '[metadata]',
    'author_name = "Envolve procedural synthesiser"',
    `difficulty = "${length >= 4 ? 'hard' : length >= 2 ? 'medium' : 'easy'}"`,
    'category = "data-processing"',
    `tags = [${names.map(tomlString).join(', ')}]`,
    `generator = ${tomlString(GENERATOR)}`,
    `generator_seed = ${seed}`,
    ...(Object.keys(variants).length > 0 ? [`generator_variants = ${tomlString(JSON.stringify(variants))}`] : []),
    `sequence = ${tomlString(JSON.stringify(sequence))}`,
    '',
    '[verifier]',
    `timeout_sec = ${budgets.verifierSec}.0`,
    '',
    '[agent]',
    `timeout_sec = ${budgets.agentSec}.0`,
    '',
    '[environment]',
    `build_timeout_sec = ${budgets.buildSec}.0`,
    'cpus = 1',
    'memory_mb = 1024',
    'storage_mb = 1024',
    'allow_internet = false',
    '',
  ].join('\n');
}

function instruction(name: string, steps: RenderedStep[]): string {
  const intro = [
    `# ${name}`,
    '',
    `This task has ${steps.length} step${steps.length === 1 ? '' : 's'}. Work in \`/app\`; each step's data is under \`/app/data/\`. Each step writes its answer to its own file in \`/app/out/\` (create the directory), exactly in the format the step states; answers are compared exactly, ignoring only trailing whitespace. Some steps use the answers of earlier ones, so a wrong early answer also breaks the steps after it. Do not modify the data. Standard command-line tools are available (awk, sed, grep, sort, jq, sqlite3, git, tar, gzip, bc, python3 and the like); there is no network access.`,
    '',
  ];
  const sections = steps.map((s, i) => `## Step ${i + 1} (\`${s.step.id}\`)\n\n${s.instruction}`);
  return `${[...intro, ...sections].join('\n')}`;
}

function dockerfile(steps: RenderedStep[]): string {
  const builds = steps.flatMap((s) => s.datasets.filter((d) => d.build).map((d) => `cd '/app/data/${d.dir}' && bash _build.sh && rm _build.sh`));
  return [
    'FROM envolve/base:bookworm',
    '',
    'COPY data /app/data',
    // Archives, repositories, databases and file modes are made here, from the text data, so the
    // bundle stays text and every build produces the same bytes.
    ...(builds.length > 0 ? [`RUN ${builds.join(' \\\n && ')}`] : []),
    'RUN mkdir -p /app/out && chown -R agent:agent /app',
    'WORKDIR /app',
    'USER agent',
    '',
  ].join('\n');
}

function solveScript(steps: RenderedStep[], wrong: boolean): string {
  const fragments = steps.map((s) => s.solve);
  const sabotage = wrong ? ['echo 0 >> "$out"'] : [];
  return [
    '#!/bin/bash',
    "# Reference solution from Envolve's procedural synthesiser: one fragment per step, each reading",
    '# its data (and the answers it depends on) at run time and writing /app/out/<step>.txt.',
    'set -euo pipefail',
    'export LC_ALL=C',
    'mkdir -p /app/out',
    '',
    fragments.join('\n\n'),
    ...sabotage,
    '',
  ].join('\n');
}
