// `npm run bench:evolution`: does evolution keep getting harder, for real?
// 1. Per shipped procedural seed and axis, one fixed-axis lineage of 15 low-effort generations,
//    each validated for real in Docker (oracle, invalid-test, counter-check, near misses, rubric): the
//    D series from the seed to the last validated generation, whether it rises strictly, the chain
//    depth, and the generation an axis was exhausted at; then per axis over all seeds, the share of
//    wrapper-only edits, the counter-check and near-miss pass rates over every candidate built, the
//    mutation score, and how many distinct questions and skills the generations used.
// 2. With --probe N > 0: the demo lineage as `npm run up` builds it (round-robin, 15 generations
//    from the first task), every version probed by the simulated and the oracle policy: Pearson r
//    between estimated D and each policy's measured pass rate and mean turns.
//   npx tsx bench/evolution-difficulty.ts [--tasks seed-logs-awk,seed-ledger-sql,seed-telemetry-jq] [--generations 15] [--probe 8] [--out FILE.md]
import { writeFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, type Db } from '../lib/db/index.ts';
import { migrateDatabase } from '../lib/db/migrations.ts';
import { readStoredDifficulty, scenarioParts, skillParts, requireKnownDifficulty, type StoredDifficulty } from '../lib/difficulty/index.ts';
import { pearson, type Correlation } from '../lib/drift/index.ts';
import { importPath, loadBundle } from '../lib/env/index.ts';
import { evolveLineage, findOrCreateLineage, lineageReport, type LineageReport } from '../lib/evolution/index.ts';
import { DockerSandbox, ensureBaseImage } from '../lib/sandbox/index.ts';
import { policyNamed, probeVersion } from '../lib/scheduler/index.ts';
import { diffSequences, type AxisPolicy, type Sequence } from '../lib/sequence/index.ts';
import { createSynthesis } from '../lib/synth/index.ts';
import { parseSolutionCheckReport } from '../lib/validate/index.ts';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: 'seed-logs-awk,seed-ledger-sql,seed-telemetry-jq' },
    generations: { type: 'string', default: '15' },
    probe: { type: 'string', default: '8' },
    out: { type: 'string' },
  },
});
const tasks = String(values.tasks).split(',');
const task = tasks[0]!;
const generations = Number(values.generations);
const probeSize = Number(values.probe);

const sandbox = new DockerSandbox();
await ensureBaseImage({ docker: sandbox.docker });
const dir = await mkdtemp(join(tmpdir(), 'envolve-bench-difficulty-'));
const url = `file:${join(dir, 'bench.db')}`;
await migrateDatabase(url);
const db = createDb(url);
const started = Date.now();

async function evolve(seedVersionId: string, axisPolicy: AxisPolicy): Promise<{ report: LineageReport; exhausted: string | null; checks: SolutionChecks }> {
  const lineage = await findOrCreateLineage(db, seedVersionId, { axisPolicy, effort: 'low', synthesiser: 'procedural', seed: 1 });
  const synthesis = createSynthesis('procedural', { sandbox });
  const result = await evolveLineage({ db, sandbox, ...synthesis, progress: () => {} }, lineage.row.id, generations);
  return { report: await lineageReport(db, lineage.row.id), exhausted: result.exhausted, checks: await solutionChecks(lineage.row.id) };
}

// The counter-check and near-miss verdicts of every candidate the lineage's modify loops built (valid
// or not): how often a candidate asked nothing new, and how often its tests let a near miss through.
interface SolutionChecks {
  candidates: number;
  counterPassed: number;
  counterRun: number;
  nearMissPassed: number;
  nearMissRun: number;
  nearMissesCaught: number;
  nearMissesTotal: number;
}

async function solutionChecks(lineageId: string): Promise<SolutionChecks> {
  const attempts = await db.attempt.findMany({ where: { generation: { lineageId } }, select: { id: true } });
  const runs = await db.validatorRun.findMany({
    where: { attemptId: { in: attempts.map((a) => a.id) }, kind: { in: ['counter-check', 'near-miss'] } },
    select: { kind: true, verdict: true, rewardDetail: true },
  });
  const counter = runs.filter((r) => r.kind === 'counter-check');
  const nearMiss = runs.filter((r) => r.kind === 'near-miss');
  const reports = nearMiss.flatMap((r) => parseSolutionCheckReport(r.rewardDetail) ?? []);
  return {
    candidates: attempts.length,
    counterPassed: counter.filter((r) => r.verdict === 'passed').length,
    counterRun: counter.length,
    nearMissPassed: nearMiss.filter((r) => r.verdict === 'passed').length,
    nearMissRun: nearMiss.length,
    nearMissesCaught: reports.reduce((n, r) => n + r.caught, 0),
    nearMissesTotal: reports.reduce((n, r) => n + r.total, 0),
  };
}

// An edit whose every replaced step keeps its domain (scenario axis) or its base skill (skill axis):
// only a layout, noise or delivery changed, which an agent undoes with one command.
function wrapperOnly(parent: Sequence, child: Sequence): boolean {
  const diff = diffSequences(parent, child);
  if (diff.inserted.length > 0 || diff.replaced.length === 0) return false;
  return diff.replaced.every((r) =>
    r.field === 'scenario' ? scenarioParts(r.from)?.domain === scenarioParts(r.to)?.domain : skillParts(r.from)?.base === skillParts(r.to)?.base,
  );
}

// The question a step asks: its base skill over its domain (each domain brings its own rule of
// which records count, so the same skill asks another question in another domain).
const questionOf = (step: Sequence['steps'][number]) =>
  `${skillParts(step.skill)?.base ?? step.skill}@${scenarioParts(step.scenario)?.domain ?? step.scenario}`;
const pct = (n: number, of: number) => (of === 0 ? '—' : `${((100 * n) / of).toFixed(0)}% (${n}/${of})`);

const settled = (report: LineageReport) => report.generations.filter((g) => g.versionId !== null && g.state === 'awaiting-review');
const fmt = (d: StoredDifficulty | null | undefined) => (!d ? '—' : 'unknown' in d ? d.label : `${d.total.toFixed(2)} (L ${d.length})`);
const fmtR = (c: Correlation) => (c.r === null ? `— (n=${c.n}, no variance or too few points)` : `${c.r.toFixed(3)} (n=${c.n})`);

async function probeAll(db: Db, versionIds: string[], policy: string, size: number) {
  const rows: { versionId: string; passRate: number; meanTurns: number | null }[] = [];
  for (const versionId of versionIds) {
    const probe = await probeVersion({ db, sandbox }, { versionId, policy: policyNamed(policy), size, concurrency: 4, seed: 1000 });
    rows.push({ versionId, passRate: probe.passes / probe.size, meanTurns: probe.meanTurns });
  }
  return rows;
}

async function importSeed(name: string): Promise<string> {
  const [imported] = await importPath(db, join('examples', 'tasks', name));
  if (!imported?.ok || !imported.versionId) throw new Error(`importing ${name} failed: ${JSON.stringify(imported)}`);
  return imported.versionId;
}

try {
  const axes = ['length', 'scenario', 'skill'] as const;
  const lines: string[] = [];
  lines.push(`# Evolution difficulty (${generations} generations per axis, low effort, procedural, lineage seed 1, every generation validated in Docker)`, '');
  lines.push('| seed | axis | D series (seed, then each validated generation) | validated | strictly rising | chain depth (last) | exhausted |');
  lines.push('| --- | --- | --- | --- | --- | --- | --- |');
  const models = new Set<string>();
  const byAxis = new Map<string, { edits: number; wrapperOnly: number; questions: Set<string>; skills: Set<string>; checks: SolutionChecks[] }>(
    axes.map((axis) => [axis, { edits: 0, wrapperOnly: 0, questions: new Set<string>(), skills: new Set<string>(), checks: [] }]),
  );
  for (const name of tasks) {
    const seedVersionId = await importSeed(name);
    const perAxis = await Promise.all(axes.map((axis) => evolve(seedVersionId, { kind: 'fixed', axis })));
    // Measured when its first lineage is created.
    const seedDifficulty = requireKnownDifficulty(readStoredDifficulty(await db.environmentVersion.findUniqueOrThrow({ where: { id: seedVersionId } })), name);
    models.add(seedDifficulty.model);
    const seedSequence = await createSynthesis('procedural', { sandbox }).synthesiser.extractSequence(await loadBundle(db, seedVersionId));
    perAxis.forEach(({ report, exhausted, checks }, i) => {
      const gens = settled(report).sort((a, b) => a.number - b.number);
      const tally = byAxis.get(axes[i]!)!;
      tally.checks.push(checks);
      let parent = seedSequence;
      for (const g of gens) {
        const child = g.sequence as Sequence;
        tally.edits += 1;
        if (wrapperOnly(parent, child)) tally.wrapperOnly += 1;
        for (const step of child.steps) {
          tally.questions.add(questionOf(step));
          tally.skills.add(skillParts(step.skill)?.base ?? step.skill);
        }
        parent = child;
      }
      const known = gens.map((g) => requireKnownDifficulty(g.difficulty, `generation ${g.number}`));
      const series = [seedDifficulty.total, ...known.map((d) => d.total)];
      const rising = series.every((d, k) => k === 0 || d > series[k - 1]!);
      known.forEach((d) => models.add(d.model));
      lines.push(
        `| ${name} | ${axes[i]} | ${series.map((d) => d.toFixed(2)).join(' ')} | ${gens.length} | ${rising ? 'yes' : 'no'} | ${known.at(-1)?.depth ?? '—'} | ${exhausted ?? 'no'} |`,
      );
    });
  }
  lines.push('', `Reference: ${[...models].join(', ')}.`, '');
  lines.push(
    `## Per axis, over ${tasks.length} seeds × ${generations} generations`,
    '',
    'Counter-check and near-miss rates are over every candidate the modify loops built (valid or not); a wrapper-only edit changes only a layout, noise or delivery; a question is a base skill over a domain.',
    '',
    '| axis | validated edits | wrapper-only edits | counter-check passed | near-miss check passed | near misses rejected (mutation score) | distinct questions | distinct skills |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const [axis, t] of byAxis) {
    const sum = (key: keyof SolutionChecks) => t.checks.reduce((n, c) => n + c[key], 0);
    lines.push(
      `| ${axis} | ${t.edits} | ${pct(t.wrapperOnly, t.edits)} | ${pct(sum('counterPassed'), sum('counterRun'))} | ${pct(sum('nearMissPassed'), sum('nearMissRun'))} | ${pct(sum('nearMissesCaught'), sum('nearMissesTotal'))} | ${t.questions.size} | ${t.skills.size} |`,
    );
  }
  if (probeSize > 0) await demoCorrelation(lines);
  lines.push(
    '',
    `Wall time ${((Date.now() - started) / 60_000).toFixed(1)} min. Command: \`npx tsx bench/evolution-difficulty.ts --tasks ${tasks.join(',')} --generations ${generations} --probe ${probeSize}\``,
  );
  const text = lines.join('\n');
  console.log(text);
  if (values.out) await writeFile(String(values.out), `${text}\n`);
} finally {
  await db.$disconnect();
  await rm(dir, { recursive: true, force: true });
}

async function demoCorrelation(lines: string[]): Promise<void> {
  const seedVersionId = await importSeed(task);
  const demo = await evolve(seedVersionId, { kind: 'round-robin' });
  const seedDifficulty = requireKnownDifficulty(readStoredDifficulty(await db.environmentVersion.findUniqueOrThrow({ where: { id: seedVersionId } })), task);
  const demoGens = settled(demo.report);
  const demoKnown = demoGens.map((g) => requireKnownDifficulty(g.difficulty, `generation ${g.number}`));
  const versions = [seedVersionId, ...demoGens.map((g) => g.versionId!)];
  const dOf = new Map<string, number>([
    [seedVersionId, seedDifficulty.total],
    ...demoGens.map((g, i) => [g.versionId!, demoKnown[i]!.total] as [string, number]),
  ]);
  lines.push('', `## Demo lineage (round-robin): ${demoGens.length} validated generations; axes ${demoGens.map((g) => g.axis).join(', ')}`);
  lines.push(`D from ${fmt(seedDifficulty)} to ${fmt(demoGens.at(-1)?.difficulty)}; chain depth ${demoKnown.at(-1)?.depth ?? '—'}.`);
  const skipped = Object.entries(demo.report.exhaustedAxes).map(([axis, e]) => `${axis} at generation ${e!.generation}`);
  lines.push(`Axes found exhausted on the way (skipped until the parent changed): ${skipped.length > 0 ? skipped.join(', ') : 'none'}.`, '');
  lines.push(`Probes: every version (seed + generations) ${probeSize} rollouts per policy.`, '');
  lines.push('| policy | r(D, pass rate) | r(D, mean turns) | mean pass rate |', '| --- | --- | --- | --- |');
  for (const policy of ['simulated', 'oracle']) {
    const rows = await probeAll(db, versions, policy, probeSize);
    const passPairs = rows.map((r) => [dOf.get(r.versionId)!, r.passRate] as const);
    const turnPairs = rows.flatMap((r) => (r.meanTurns === null ? [] : [[dOf.get(r.versionId)!, r.meanTurns] as const]));
    const meanPass = rows.reduce((s, r) => s + r.passRate, 0) / rows.length;
    lines.push(`| ${policy} | ${fmtR(pearson(passPairs))} | ${fmtR(pearson(turnPairs))} | ${meanPass.toFixed(3)} |`);
  }
}
