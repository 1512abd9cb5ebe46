// Does evolution keep getting harder, and does off-policy D predict on-policy outcome? (issue 16)
// 1. Per axis, one fixed-axis lineage of 15 low-effort generations from a shipped seed: D at
//    generations 1, 5, 10 and 15, the chain depth, and the generation an axis was exhausted at.
// 2. The demo database as `npm run up` builds it (a round-robin lineage of 15 generations from the
//    same seed), every version probed by the simulated and the oracle policy: Pearson r between
//    estimated D and each policy's measured pass rate and mean turns.
//   npx tsx bench/evolution-difficulty.ts [--task seed-logs-awk] [--generations 15] [--probe 8] [--out FILE.md]
import { writeFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, type Db } from '../lib/db/client.ts';
import { migrateDatabase } from '../lib/db/migrate.ts';
import { readStoredDifficulty, type StoredDifficulty } from '../lib/difficulty/index.ts';
import { pearson, type Correlation } from '../lib/drift/difficulty-outcome.ts';
import { importPath } from '../lib/env/import.ts';
import { evolveLineage, findOrCreateLineage, lineageReport, type LineageReport } from '../lib/evolution/index.ts';
import { DockerSandbox, ensureBaseImage } from '../lib/sandbox/index.ts';
import { policyNamed, probeVersion } from '../lib/scheduler/index.ts';
import type { AxisPolicy } from '../lib/sequence/types.ts';
import { createSynthesis } from '../lib/synth/index.ts';

const { values } = parseArgs({
  options: {
    task: { type: 'string', default: 'seed-logs-awk' },
    generations: { type: 'string', default: '15' },
    probe: { type: 'string', default: '8' },
    out: { type: 'string' },
  },
});
const task = String(values.task);
const generations = Number(values.generations);
const probeSize = Number(values.probe);
const REPORTED = [1, 5, 10, 15].filter((g) => g <= generations);

const sandbox = new DockerSandbox();
await ensureBaseImage({ docker: sandbox.docker });
const dir = await mkdtemp(join(tmpdir(), 'envolve-bench-difficulty-'));
const url = `file:${join(dir, 'bench.db')}`;
await migrateDatabase(url);
const db = createDb(url);
const started = Date.now();

async function evolve(seedVersionId: string, axisPolicy: AxisPolicy): Promise<{ report: LineageReport; exhausted: string | null }> {
  const lineage = await findOrCreateLineage(db, seedVersionId, { axisPolicy, effort: 'low', synthesiser: 'procedural', seed: 1 });
  const synthesis = createSynthesis('procedural', { sandbox });
  const result = await evolveLineage({ db, sandbox, ...synthesis, progress: () => {} }, lineage.row.id, generations);
  return { report: await lineageReport(db, lineage.row.id), exhausted: result.exhausted };
}

const settled = (report: LineageReport) => report.generations.filter((g) => g.versionId !== null && g.state === 'awaiting-review');
const fmt = (d: StoredDifficulty | null | undefined) => (d ? `${d.total.toFixed(2)} (L ${d.length})` : '—');
const fmtR = (c: Correlation) => (c.r === null ? `— (n=${c.n}, no variance or too few points)` : `${c.r.toFixed(3)} (n=${c.n})`);

async function probeAll(db: Db, versionIds: string[], policy: string, size: number) {
  const rows: { versionId: string; passRate: number; meanTurns: number | null }[] = [];
  for (const versionId of versionIds) {
    const probe = await probeVersion({ db, sandbox }, { versionId, policy: policyNamed(policy), size, concurrency: 4, seed: 1000 });
    rows.push({ versionId, passRate: probe.passes / probe.size, meanTurns: probe.meanTurns });
  }
  return rows;
}

try {
  const [imported] = await importPath(db, join('examples', 'tasks', task));
  if (!imported?.ok || !imported.versionId) throw new Error(`importing ${task} failed: ${JSON.stringify(imported)}`);
  const seedVersionId = imported.versionId;

  const axes = ['length', 'scenario', 'skill'] as const;
  const [perAxis, demo] = await Promise.all([
    Promise.all(axes.map((axis) => evolve(seedVersionId, { kind: 'fixed', axis }))),
    evolve(seedVersionId, { kind: 'round-robin' }),
  ]);
  const seedDifficulty = readStoredDifficulty(await db.environmentVersion.findUniqueOrThrow({ where: { id: seedVersionId } }));

  const lines: string[] = [];
  lines.push(`# Evolution difficulty from ${task} (${generations} generations, low effort, procedural, seed 1)`, '');
  lines.push(`Seed: D ${fmt(seedDifficulty)}, chain depth ${seedDifficulty?.depth ?? '—'}; reference ${seedDifficulty?.model ?? '—'}.`, '');
  lines.push(`| axis | ${REPORTED.map((g) => `D at g${g}`).join(' | ')} | validated | chain depth (last) | exhausted |`);
  lines.push(`| --- | ${REPORTED.map(() => '---').join(' | ')} | --- | --- | --- |`);
  perAxis.forEach(({ report, exhausted }, i) => {
    const gens = settled(report);
    const at = (n: number) => fmt(gens.find((g) => g.number === n)?.difficulty);
    const last = gens.at(-1);
    lines.push(`| ${axes[i]} | ${REPORTED.map(at).join(' | ')} | ${gens.length} | ${last?.difficulty?.depth ?? '—'} | ${exhausted ?? 'no'} |`);
  });

  const demoGens = settled(demo.report);
  const versions = [seedVersionId, ...demoGens.map((g) => g.versionId!)];
  const dOf = new Map<string, number>([
    [seedVersionId, seedDifficulty!.total],
    ...demoGens.map((g) => [g.versionId!, g.difficulty!.total] as [string, number]),
  ]);
  lines.push('', `## Demo lineage (round-robin): ${demoGens.length} validated generations; axes ${demoGens.map((g) => g.axis).join(', ')}`);
  lines.push(`D from ${fmt(seedDifficulty)} to ${fmt(demoGens.at(-1)?.difficulty)}; chain depth ${demoGens.at(-1)?.difficulty?.depth ?? '—'}.`);
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
  lines.push(
    '',
    `Wall time ${((Date.now() - started) / 60_000).toFixed(1)} min. Command: \`npx tsx bench/evolution-difficulty.ts --task ${task} --generations ${generations} --probe ${probeSize}\``,
  );
  const text = lines.join('\n');
  console.log(text);
  if (values.out) await writeFile(String(values.out), `${text}\n`);
} finally {
  await db.$disconnect();
  await rm(dir, { recursive: true, force: true });
}
