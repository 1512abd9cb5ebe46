// Read queries behind the environments pages and their JSON routes.
import type { Db } from '../db/index.ts';
import { idsWithNameContaining } from '../db/index.ts';
import { readStoredDifficulty } from '../difficulty/index.ts';
import { median } from '../drift/index.ts';
import { readProceduralMetadata } from '../synth/index.ts';
import { jsonEntries } from './flatten.ts';
import { internetRequests } from '../env/index.ts';
import { taskTomlSections } from './task-toml.ts';
import type { EnvironmentDetail, EnvironmentListItem, LogPhase, ValidatorKind, ValidatorRunRow, VerdictSummary } from './types.ts';
import { versionSandboxRuntime } from '../evolution/index.ts';
import { ACTIVE_JOB_STATES } from '../queue/index.ts';
import { parseSolutionCheckReport } from '../validate/index.ts';
import { rubricJudgements, type RubricJudgement } from '../rubric/index.ts';
import { shownVerdict } from './run-label.ts';

export const ENVIRONMENT_LIST_LIMIT = 500;

// Every column of a validator run but the two logs.
export const RUN_ROW_SELECT = {
  id: true,
  versionId: true,
  kind: true,
  verdict: true,
  status: true,
  reward: true,
  rewardDetail: true,
  expectedReward: true,
  imageId: true,
  agentExitCode: true,
  verifierExitCode: true,
  error: true,
  containment: true,
  timedOut: true,
  buildDurationMs: true,
  agentDurationMs: true,
  verifierDurationMs: true,
  totalDurationMs: true,
  jobId: true,
  sandboxRuntime: true,
  createdAt: true,
} as const;

// Version ids are sha256 hex, so a job whose payload contains one is about that
// version, whatever the job kind and payload shape.
async function versionsWithActiveJobs(db: Db, versionIds: string[]): Promise<Set<string>> {
  if (versionIds.length === 0) return new Set();
  const jobs = await db.job.findMany({ where: { state: { in: [...ACTIVE_JOB_STATES] } }, select: { payload: true } });
  return new Set(versionIds.filter((id) => jobs.some((job) => job.payload.includes(id))));
}

// The newest run per (version, kind).
async function latestVerdicts(db: Db, versionIds: string[]): Promise<Map<string, VerdictSummary>> {
  if (versionIds.length === 0) return new Map();
  // Every run of these versions in one unordered IN list, which Prisma splits into chunks under
  // the bind-parameter limit (it cannot when the query is ordered); an OR of (version, kind,
  // newest time) triples outgrew that limit once hundreds of versions carried runs.
  const unordered = await db.validatorRun.findMany({
    where: { versionId: { in: versionIds } },
    select: {
      id: true,
      versionId: true,
      kind: true,
      verdict: true,
      status: true,
      reward: true,
      expectedReward: true,
      imageId: true,
      totalDurationMs: true,
      createdAt: true,
    },
  });
  // Oldest first, so the newest of each kind wins; two runs of one millisecond: the larger id.
  const runs = unordered.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  const byKey = new Map<string, VerdictSummary>();
  for (const { id, versionId, createdAt, ...run } of runs) {
    byKey.set(verdictKey(versionId, run.kind), { runId: id, ...run, createdAt: createdAt.toISOString() });
  }
  return byKey;
}

function verdictKey(versionId: string, kind: string): string {
  return `${versionId}\u0000${kind}`;
}

/** Environment versions, newest first, with their latest oracle and invalid-test verdicts. */
export async function listEnvironments(db: Db, options: { nameContains?: string } = {}): Promise<EnvironmentListItem[]> {
  const versions = await db.environmentVersion.findMany({
    where: options.nameContains ? { id: { in: await idsWithNameContaining(db, 'environmentVersion', options.nameContains) } } : undefined,
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: ENVIRONMENT_LIST_LIMIT,
    select: { id: true, name: true, source: true, createdAt: true, _count: { select: { files: true } } },
  });
  const ids = versions.map((version) => version.id);
  const [verdicts, pending] = await Promise.all([latestVerdicts(db, ids), versionsWithActiveJobs(db, ids)]);
  const verdictOf = (id: string, kind: ValidatorKind) => verdicts.get(verdictKey(id, kind)) ?? null;
  return versions.map((version) => ({
    id: version.id,
    name: version.name,
    source: version.source,
    createdAt: version.createdAt.toISOString(),
    fileCount: version._count.files,
    oracle: verdictOf(version.id, 'oracle'),
    invalidTest: verdictOf(version.id, 'invalid-test'),
    validationPending: pending.has(version.id),
  }));
}

/** One environment version with its files and every validator run (newest first), or null. */
export async function getEnvironment(db: Db, id: string): Promise<EnvironmentDetail | null> {
  const version = await db.environmentVersion.findUnique({
    where: { id },
    include: {
      files: { orderBy: { path: 'asc' }, include: { blob: { select: { size: true } } } },
      validatorRuns: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: RUN_ROW_SELECT },
    },
  });
  if (!version) return null;
  const pending = await versionsWithActiveJobs(db, [id]);
  const judgements = await rubricJudgements(
    db,
    version.validatorRuns.filter((r) => r.kind === 'rubric').map((r) => r.id),
  );
  const { sections, doc, error } = taskTomlSections(version.taskToml);
  return {
    id: version.id,
    name: version.name,
    source: version.source,
    createdAt: version.createdAt.toISOString(),
    taskToml: version.taskToml,
    taskTomlSections: sections,
    taskTomlError: error,
    taskConfig: doc,
    taskDifficulty: (doc?.metadata as Record<string, unknown> | undefined)?.difficulty ?? null,
    internetRequested: internetRequests(version.taskToml),
    instruction: version.instruction,
    files: version.files.map((file) => ({
      path: file.path,
      size: file.blob.size,
      executable: file.executable,
      blobHash: file.blobHash,
    })),
    runs: version.validatorRuns.map((run) => toRunRow(run, judgements)),
    validationPending: pending.has(id),
    difficulty: readStoredDifficulty(version),
    sequence: sequenceOf(version.metadata),
    measuredTurns: await measuredTurns(db, id),
    sandboxRuntime: await versionSandboxRuntime(db, id, version.taskToml),
    describable:
      version.source === 'import' &&
      readProceduralMetadata({ name: version.name, files: [{ path: 'task.toml', content: Buffer.from(version.taskToml), executable: false }] }) === null,
  };
}

// Median turns of the version's finished rollouts, per policy (errors measured nothing).
async function measuredTurns(db: Db, versionId: string): Promise<EnvironmentDetail['measuredTurns']> {
  const rows = await db.rollout.findMany({
    where: { versionId, status: { in: ['completed', 'timed-out', 'reward-missing'] } },
    select: { policy: true, simulated: true, turns: true, sandboxRuntime: true },
  });
  const byPolicy = new Map<string, { simulated: boolean; turns: number[]; runtimes: Set<string> }>();
  for (const row of rows) {
    const entry = byPolicy.get(row.policy) ?? { simulated: row.simulated, turns: [], runtimes: new Set<string>() };
    entry.turns.push(row.turns);
    if (row.sandboxRuntime) entry.runtimes.add(row.sandboxRuntime);
    byPolicy.set(row.policy, entry);
  }
  return [...byPolicy.entries()]
    .map(([policy, { simulated, turns, runtimes }]) => ({
      policy,
      simulated,
      rollouts: turns.length,
      medianTurns: median(turns),
      sandboxRuntimes: [...runtimes].sort(),
    }))
    .sort((a, b) => a.policy.localeCompare(b.policy));
}

function sequenceOf(metadata: string): EnvironmentDetail['sequence'] {
  try {
    const steps = (JSON.parse(metadata) as { sequence?: { steps?: EnvironmentDetail['sequence'] } }).sequence?.steps;
    return Array.isArray(steps) ? steps : null;
  } catch {
    return null;
  }
}

type StoredRunRow = Omit<ValidatorRunRow, 'createdAt' | 'containment' | 'solutionCheck' | 'label' | 'judged'> & { createdAt: Date; containment: string | null };

function toRunRow(run: StoredRunRow, judgements: Map<string, RubricJudgement>): ValidatorRunRow {
  const shown = shownVerdict(run.kind, run.verdict, judgements.get(run.id) ?? null);
  return {
    ...run,
    ...shown,
    containment: jsonEntries(run.containment),
    solutionCheck: parseSolutionCheckReport(run.rewardDetail),
    createdAt: run.createdAt.toISOString(),
  };
}

/** The agent or verifier log of one validator run, or null when the run does not exist. */
export async function getValidatorRunLog(db: Db, runId: string, phase: LogPhase): Promise<string | null> {
  const run = await db.validatorRun.findUnique({
    where: { id: runId },
    select: { agentLog: true, verifierLog: true },
  });
  if (!run) return null;
  return phase === 'agent' ? run.agentLog : run.verifierLog;
}
