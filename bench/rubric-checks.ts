// The executable rubric items' run time on the largest environment the tests build: a procedural
// task lengthened to 17 steps (the seed's 2 plus 15 low-effort length generations, as in
// test/evolution/evolve-offline.test.ts). Every item runs alone in the checks container, several
// rounds interleaved with a no-op check (`true`) measured in the same container, so each item is
// reported as a median, as a ratio to the no-op (the exec floor, which moves with the machine's
// load) and as a share of the check budget it must stay well inside.
//   npx tsx bench/rubric-checks.ts [--rounds 5] [--steps 17] [--json]
import { parseArgs } from 'node:util';
import type { TaskBundle } from '../lib/bundle/index.ts';
import { DEFAULT_DIFFICULTY_MARGIN } from '../lib/evolution/index.ts';
import { BUILTIN_RUBRIC } from '../lib/rubric/index.ts';
import { DEFAULT_CHECK_TIMEOUT_SEC, DockerSandbox, ensureBaseImage, type CheckSpec } from '../lib/sandbox/index.ts';
import { proposePlan, newSeedSequence, renderEnvironment } from '../lib/synth/index.ts';
import { isMain } from './main.ts';
import { summarize, type Summary } from './stats.ts';

export interface RubricCheckTiming {
  key: string;
  ms: Summary;
  ratioToNoop: number; // median / the no-op check's median
  shareOfBudget: number; // median / the check budget
}

export interface RubricChecksResult {
  steps: number;
  files: number;
  bytes: number;
  rounds: number;
  budgetSec: number;
  noopMs: Summary;
  items: RubricCheckTiming[];
}

const NOOP = '__noop__';

// The seed's steps plus length edits, each planned by the procedural proposer, then rendered.
export function lengthenedProceduralTask(steps: number, seed = 101): TaskBundle {
  let sequence = newSeedSequence(seed, { steps: 2 });
  for (let generation = 1; sequence.steps.length < steps; generation++) {
    sequence = proposePlan({ sequence, axis: 'length', effort: 'low', seed: seed * 1000 + generation, round: 0, minGain: DEFAULT_DIFFICULTY_MARGIN }).child;
  }
  return renderEnvironment(sequence, { seed, name: `bench-${steps}-steps` });
}

export async function measureRubricChecks(options: { rounds: number; steps: number; progress?: (m: string) => void }): Promise<RubricChecksResult> {
  const sandbox = new DockerSandbox();
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  const bundle = lengthenedProceduralTask(options.steps);
  const items = BUILTIN_RUBRIC.filter((i): i is typeof i & { check: string } => i.check !== null && i.appliesTo !== 'plan');
  const checks: CheckSpec[] = [{ id: NOOP, script: 'true' }, ...items.map((i) => ({ id: i.key, script: i.check }))];
  const samples = new Map<string, number[]>(checks.map((c) => [c.id, []]));
  for (let round = 0; round < options.rounds; round++) {
    // A new container per round; the order rotates so no item always runs first or last.
    const rotated = checks.map((_, i) => checks[(i + round) % checks.length]!);
    const { results } = await sandbox.runChecks({ files: bundle.files, checks: rotated });
    for (const r of results) {
      if (r.exitCode !== 0) throw new Error(`${r.id} did not pass on the ${options.steps}-step task (exit ${r.exitCode}): ${r.output}`);
      samples.get(r.id)!.push(r.durationMs);
    }
    options.progress?.(`round ${round + 1}/${options.rounds}`);
  }
  const noopMs = summarize(samples.get(NOOP)!);
  return {
    steps: options.steps,
    files: bundle.files.length,
    bytes: bundle.files.reduce((sum, f) => sum + f.content.length, 0),
    rounds: options.rounds,
    budgetSec: DEFAULT_CHECK_TIMEOUT_SEC,
    noopMs,
    items: items.map((item) => {
      const ms = summarize(samples.get(item.key)!);
      return { key: item.key, ms, ratioToNoop: ms.median / noopMs.median, shareOfBudget: ms.median / (DEFAULT_CHECK_TIMEOUT_SEC * 1000) };
    }),
  };
}

export function formatRubricChecks(result: RubricChecksResult): string {
  const lines = [
    `Executable rubric items on a ${result.steps}-step procedural task (${result.files} files, ${result.bytes} bytes), ${result.rounds} rounds, budget ${result.budgetSec} s per check`,
    `no-op check (the exec floor): median ${Math.round(result.noopMs.median)} ms (min ${Math.round(result.noopMs.min)}, max ${Math.round(result.noopMs.max)})`,
    '',
    '| item | median ms | min–max ms | × no-op | share of budget |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...result.items.map(
      (i) =>
        `| ${i.key} | ${Math.round(i.ms.median)} | ${Math.round(i.ms.min)}–${Math.round(i.ms.max)} | ${i.ratioToNoop.toFixed(1)} | ${(i.shareOfBudget * 100).toFixed(1)} % |`,
    ),
  ];
  return lines.join('\n');
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '5' }, steps: { type: 'string', default: '17' }, json: { type: 'boolean', default: false } },
  });
  const result = await measureRubricChecks({
    rounds: Number(values.rounds),
    steps: Number(values.steps),
    progress: (m) => process.stderr.write(`[rubric-checks] ${m}\n`),
  });
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatRubricChecks(result)}\n`);
}
