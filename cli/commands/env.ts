// `envolve env …`: import, list, show, export and validate environment versions.
import type { Command } from 'commander';
import { exportVersion, importCollection, resolveVersionId } from '../../lib/env/index.ts';
import { getEnvironment, listEnvironments, type ValidatorRunRow } from '../../lib/dashboard/index.ts';
import { userInfo } from 'node:os';
import { readStoredDifficulty } from '../../lib/difficulty/index.ts';
import { describeImportedSeed, parseSequenceSpec, versionSandbox } from '../../lib/evolution/index.ts';
import { enqueueValidation, validateEnvironment, type SolutionCheckReport } from '../../lib/validate/index.ts';
import { openSandbox, withDb } from '../context.ts';
import { baseImagesFrom, withBaseImageFlags } from '../flags.ts';
import { emit, fail, progress, shortId, table, type OutputOptions } from '../output.ts';
import { describeSandboxRuntime } from '../../lib/sandbox/index.ts';

type Opts = OutputOptions & Record<string, unknown>;

export function registerEnvCommands(program: Command): void {
  const env = program.command('env').description('environment versions (Harbor task directories)');

  env
    .command('import')
    .argument('<path>', 'a task directory, a directory of tasks (a Harbor dataset), a Harbor registry .json file, or a .tar/.tar.gz archive')
    .option('--json', 'print one JSON document')
    .description('import tasks as seed environments; bad tasks are reported and store nothing')
    .action((path: string, opts: Opts) => run(opts, () => importCommand(path, opts)));

  env
    .command('list')
    .option('--json', 'print one JSON document')
    .option('--name <name>', 'only versions with this name')
    .description('environment versions with their latest verdicts')
    .action((opts: Opts) => run(opts, () => listCommand(opts)));

  env
    .command('show')
    .argument('<id>', 'a version id or a unique prefix of it')
    .option('--json', 'print one JSON document')
    .action((id: string, opts: Opts) => run(opts, () => showCommand(id, opts)));

  env
    .command('export')
    .argument('<id>', 'a version id or a unique prefix of it')
    .requiredOption('--out <dir>', 'the directory to write the task to')
    .option('--force', 'replace the contents of an existing task directory')
    .option('--json', 'print one JSON document')
    .action((id: string, opts: Opts) => run(opts, () => exportCommand(id, opts)));

  withBaseImageFlags(env.command('validate'))
    .argument('<id>', 'a version id or a unique prefix of it')
    .option('--enqueue', 'hand the validation to the workers instead of running it here')
    .option('--json', 'print one JSON document')
    .description('oracle (solution scores 1) and invalid-test (nop scores 0), in parallel containers')
    .action((id: string, opts: Opts) => run(opts, () => validateCommand(id, opts)));

  env
    .command('sequence')
    .argument('<id>', 'a version id or a unique prefix of it')
    .option('--set <steps>', 'describe an imported seed: scenario:skill pairs in working order, comma-separated, reference names only')
    .option('--json', 'print one JSON document')
    .description("show a version's scenario–skill sequence and difficulty, or describe an imported seed's (audited, versioned)")
    .action((id: string, opts: Opts) => run(opts, () => sequenceCommand(id, opts)));
}

async function sequenceCommand(id: string, opts: Opts): Promise<void> {
  const result = await withDb(async (db) => {
    const versionId = await resolveVersionId(db, id);
    if (typeof opts.set === 'string') {
      const described = await describeImportedSeed(db, versionId, parseSequenceSpec(opts.set), { id: null, email: `cli:${userInfo().username}` });
      return {
        versionId,
        revision: described.revision,
        sequence: described.sequence,
        difficulty: readStoredDifficulty(await db.environmentVersion.findUniqueOrThrow({ where: { id: versionId } })),
      };
    }
    const version = await db.environmentVersion.findUniqueOrThrow({ where: { id: versionId } });
    const metadata = JSON.parse(version.metadata) as { sequence?: unknown; sequenceRevision?: number };
    return { versionId, revision: metadata.sequenceRevision ?? 0, sequence: metadata.sequence ?? null, difficulty: readStoredDifficulty(version) };
  });
  emit(opts, result, (r) => {
    const steps = (r.sequence as { steps?: Array<{ id: string; scenario: string; skill: string; dependsOn: string[] }> } | null)?.steps;
    const d = r.difficulty;
    return [
      `${shortId(r.versionId)}  sequence revision ${r.revision}`,
      steps
        ? table([['STEP', 'SCENARIO', 'SKILL', 'CONSUMES'], ...steps.map((s) => [s.id, s.scenario, s.skill, s.dependsOn.join(', ') || '–'])])
        : 'no stored sequence (the proposer reads it off the task when it evolves)',
      d && 'unknown' in d
        ? `D ${d.label}: step ${d.undescribedSteps.join(', ')} is the imported task as one opaque step; describe it with --set`
        : d
          ? `D ${d.total.toFixed(2)} = L ${d.length} turns + novelty ${d.scenarioNovelty.toFixed(2)} + rarity ${d.skillRarity.toFixed(2)}; chain depth ${d.depth ?? '–'} (${d.model})`
          : 'difficulty not computed yet',
    ].join('\n');
  });
}

async function run(opts: Opts, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    fail(opts, err);
  }
}

async function importCommand(path: string, opts: Opts): Promise<void> {
  const { results, notTasks, summary } = await withDb((db) => importCollection(db, path));
  const ok = results.every((r) => r.ok);
  emit(opts, { ok, summary, results, notTasks }, () =>
    [
      ...results.map((r) =>
        [
          `${r.ok ? '✓' : '✗'} ${r.name}  ${r.ok ? shortId(r.versionId) : 'not imported'}${r.alreadyStored ? ' (already stored)' : ''}`,
          ...r.errors.map((e) => `    error: ${e}`),
          ...r.warnings.map((w) => `    warning: ${w}`),
        ].join('\n'),
      ),
      ...notTasks.map((dir) => `– ${dir}  not a task (no task.toml, instruction.md, or environment/ with tests/)`),
      summary,
    ].join('\n'),
  );
  if (!ok) process.exitCode = 1;
}

async function listCommand(opts: Opts): Promise<void> {
  const versions = await withDb((db) => listEnvironments(db, { nameContains: opts.name as string | undefined }));
  emit(opts, { versions }, ({ versions }) =>
    table([
      ['ID', 'NAME', 'SOURCE', 'FILES', 'ORACLE', 'INVALID-TEST'],
      ...versions.map((v) => [
        shortId(v.id),
        v.name,
        v.source,
        String(v.fileCount),
        v.oracle?.verdict ?? (v.validationPending ? 'pending' : '–'),
        v.invalidTest?.verdict ?? (v.validationPending ? 'pending' : '–'),
      ]),
    ]),
  );
}

async function showCommand(id: string, opts: Opts): Promise<void> {
  const detail = await withDb(async (db) => getEnvironment(db, await resolveVersionId(db, id)));
  if (!detail) throw new Error(`environment version ${id} not found`);
  // The JSON keeps task.toml's own types (taskConfig); the display rows are strings for people.
  const { taskTomlSections, ...json } = detail;
  emit(opts, json, (d) =>
    [
      `${d.name}  ${d.id}`,
      `source: ${d.source}   created: ${d.createdAt}`,
      `difficulty: ${d.taskDifficulty ?? '–'} (the task's [metadata]); ${d.difficulty ? `D ${'unknown' in d.difficulty ? d.difficulty.label : d.difficulty.total.toFixed(2)} (computed by Envolve)` : 'D not computed yet'}`,
      ...(d.internetRequested.length
        ? [`internet: asked for in ${d.internetRequested.map((t) => `[${t}]`).join(', ')}; Envolve runs the agent and verifier offline`]
        : []),
      `sandbox runtime: ${describeSandboxRuntime(d.sandboxRuntime)}${d.sandboxRuntime.required ? `; the task asks for ${d.sandboxRuntime.required} (it may only raise isolation)` : ''}`,
      '',
      table([['FILE', 'SIZE', 'EXEC'], ...d.files.map((f) => [f.path, String(f.size), f.executable ? 'x' : ''])]),
      '',
      d.runs.length === 0
        ? 'not validated yet'
        : table([
            ['VALIDATOR', 'VERDICT', 'REWARD', 'IMAGE', 'RUNTIME', 'MS', 'WHEN'],
            ...d.runs.map((r) => [
              r.kind,
              // A rubric run names what it judged: "partly judged: 8 of 19 judged, 11 need an LLM judge".
              r.judged ? `${r.label}: ${r.judged}` : r.label,
              String(r.reward ?? '–'),
              shortId(r.imageId),
              r.sandboxRuntime ?? '–',
              String(r.totalDurationMs),
              r.createdAt,
            ]),
          ]),
      ...(d.runs.length === 0 ? [] : solutionCheckLines(d.runs)),
    ].join('\n'),
  );
}

// The newest counter-check and near-miss runs in words, with every run they did not reject.
function solutionCheckLines(runs: ValidatorRunRow[]): string[] {
  const latest = (kind: string) => runs.find((r) => r.kind === kind); // newest first
  const lines = [''];
  const counter = latest('counter-check');
  const nearMiss = latest('near-miss');
  const detail = (report: SolutionCheckReport) => report.runs.filter((r) => r.outcome !== 'caught').map((r) => `    ${r.outcome}: ${r.label}: ${r.why}`);
  if (!counter) lines.push('counter-check: not run (no earlier reference solution was run against this version)');
  else if (!counter.solutionCheck) lines.push(`counter-check: ${counter.verdict}${counter.error ? ` (${counter.error.split('\n')[0]})` : ''}`);
  else {
    const report = counter.solutionCheck;
    const scope = report.checkedSteps ? `changed or added steps ${report.checkedSteps.join(', ')}` : 'the whole task';
    lines.push(
      `counter-check: ${counter.verdict}, ${report.caught}/${report.total} runs of earlier reference solutions rejected on ${scope}`,
      ...detail(report),
    );
  }
  if (!nearMiss) lines.push('near misses: none written (no near-miss verdict)');
  else if (!nearMiss.solutionCheck) lines.push(`near misses: ${nearMiss.verdict}${nearMiss.error ? ` (${nearMiss.error.split('\n')[0]})` : ''}`);
  else {
    const report = nearMiss.solutionCheck;
    lines.push(
      `near misses: ${nearMiss.verdict}, mutation score ${report.caught}/${report.total} (near misses the tests rejected of those written)`,
      ...detail(report),
    );
  }
  return lines;
}

async function exportCommand(id: string, opts: Opts): Promise<void> {
  const result = await withDb(async (db) => exportVersion(db, await resolveVersionId(db, id), opts.out as string, { overwrite: Boolean(opts.force) }));
  emit(opts, { ok: true, ...result }, (r) => `wrote ${r.fileCount} files of ${shortId(r.versionId)} to ${r.dir}`);
}

function describeBuild(build: { network?: { setting: string; mode: string }; mapped?: Array<{ from: string; to: string }> } | null | undefined): string[] {
  if (!build?.network) return [];
  const mapped = (build.mapped ?? []).map((m) => `; FROM ${m.from} built on ${m.to}`).join('');
  return [`image built with ENVOLVE_BUILD_NETWORK=${build.network.setting} (${build.network.mode} network)${mapped}; trials ran offline`];
}

async function validateCommand(id: string, opts: Opts): Promise<void> {
  const baseImages = baseImagesFrom(opts);
  const outcome = await withDb(async (db) => {
    const versionId = await resolveVersionId(db, id);
    if (opts.enqueue) return { versionId, job: await enqueueValidation(db, versionId, { baseImages }) };
    const sandbox = await versionSandbox(db, await openSandbox(), versionId);
    const runs = await validateEnvironment({ db, sandbox, versionId, baseImages, progress });
    return { versionId, runs };
  });
  if (outcome.job) {
    emit(opts, { ok: true, ...outcome }, (o) => `queued validation job ${o.job.id} for ${shortId(o.versionId)}`);
    return;
  }
  const runs = outcome.runs.map(({ agentLog, verifierLog, containment, rewardDetail, build, ...run }) => ({
    ...run,
    build: build ? JSON.parse(build) : null,
    rewardDetail: rewardDetail ? JSON.parse(rewardDetail) : null,
    containment: containment ? JSON.parse(containment) : null,
    agentLogTail: agentLog.slice(-2000),
    verifierLogTail: verifierLog.slice(-2000),
  }));
  const ok = runs.every((r) => r.verdict === 'passed');
  emit(opts, { ok, versionId: outcome.versionId, runs }, ({ runs }) =>
    [
      ...runs.map(
        (r, i) =>
          `${r.verdict === 'passed' ? '✓' : '✗'} ${r.kind.padEnd(12)} ${r.verdict.padEnd(7)} reward ${r.reward ?? '–'} ` +
          `(expected ${r.expectedReward}) image ${shortId(r.imageId)} ${r.totalDurationMs} ms` +
          // A build failure is the same for both validators: its log is printed once.
          (r.error && r.error !== runs[i - 1]?.error ? `\n    ${r.error}` : r.error ? '\n    (the same error)' : ''),
      ),
      ...describeBuild(runs[0]?.build),
    ].join('\n'),
  );
  if (!ok) process.exitCode = 1;
}
