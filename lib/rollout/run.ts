// One rollout: a policy acts in a fresh trial container of an environment version, turn by turn;
// every turn is stored as an ATIF step, then the real verifier scores the artifacts. The row is
// written (status 'running') before anything runs, so a killed worker leaves evidence behind.
import type { Db, Rollout } from '../db/index.ts';
import { getVersion, loadBundle } from '../env/index.ts';
import { bundleFile, type TaskBundle, parseTaskConfig } from '../bundle/index.ts';
import { rethrowIfStopping, type BuildResult, type Sandbox, type TrialResult } from '../sandbox/index.ts';
import { parseSequence } from '../sequence/index.ts';
import { refreshSuspicion } from '../trajectories/index.ts';
import { taskResources } from '../validate/index.ts';
import { CEILING_SETTINGS } from '../config/index.ts';
import { configuredCeilings } from '../sandbox/index.ts';
import type { Sequence } from '../sequence/index.ts';
import { storeChangedFiles, type ChangedFile } from './blobs.ts';
import { touchesProtected, TrajectoryRecorder, TurnLimitReached, type RecordedStep } from './recorder.ts';
import type { Policy, Terminal } from './types.ts';

export const DEFAULT_MAX_TURNS = 100;
// Where an agent's artifacts are looked for when the image sets no WORKDIR.
const WORK_DIRS_WITHOUT_WORKDIR = ['/app', '/root', '/home', '/srv', '/opt', '/output', '/workspace'];

export interface RolloutDeps {
  db: Db;
  sandbox: Sandbox;
}

export interface RolloutRequest {
  versionId: string;
  policy: Policy;
  seed: number;
  attempt: number; // 1-based, within the group
  groupId?: string;
  generationId?: string;
  lineageId?: string;
  passThreshold?: number; // a rollout passes when its reward is at least this; default 1
  maxTurns?: number;
  agentTimeoutSec?: number; // overrides task.toml [agent] timeout_sec; at most ENVOLVE_MAX_AGENT_TIMEOUT_SEC
  commandTimeoutSec?: number; // per command; default the sandbox's (600 s) capped by the agent budget
  jobId?: string;
  timeoutReward?: number; // the low reward a timed-out rollout gets; default 0
  labels?: Record<string, string>;
}

// Builds (or finds) a version's image. Callers that run many trials build once up front, so an
// image that does not build fails once, with the build's own error, not once per trial.
export async function buildVersionImage(deps: RolloutDeps, versionId: string): Promise<BuildResult> {
  const bundle = await loadBundle(deps.db, versionId);
  const config = parseTaskConfig(bundleFile(bundle, 'task.toml')?.content.toString('utf8') ?? '');
  if (!config.ok) throw new Error(`task.toml: ${config.error}`);
  return deps.sandbox.buildEnvironmentImage(bundle, { timeoutSec: config.config.environment.build_timeout_sec });
}

export interface RolloutSummary {
  id: string;
  status: string; // completed | timed-out | reward-missing | error
  reward: number | null;
  passed: boolean | null;
  timedOut: boolean;
  turns: number;
  durationMs: number;
  imageId: string | null;
  phaseMs: Record<string, number> | null; // where the trial's time went, by step
}

export const summariseRollout = (row: Rollout): RolloutSummary => ({
  id: row.id,
  status: row.status,
  reward: row.reward,
  passed: row.passed,
  timedOut: row.timedOut,
  turns: row.turns,
  durationMs: row.durationMs,
  imageId: row.imageId,
  phaseMs: row.phaseMs ? (JSON.parse(row.phaseMs) as Record<string, number>) : null,
});

export async function runRollout(deps: RolloutDeps, req: RolloutRequest): Promise<RolloutSummary> {
  const { db } = deps;
  if (!Number.isInteger(req.attempt) || req.attempt < 1) throw new Error(`attempt must be a positive integer, got ${req.attempt}`);
  if (!Number.isInteger(req.seed)) throw new Error(`seed must be an integer, got ${req.seed}`);
  if (req.groupId) {
    const existing = await db.rollout.findUnique({ where: { groupId_attempt: { groupId: req.groupId, attempt: req.attempt } } });
    if (existing && existing.status !== 'running') return summariseRollout(existing);
    // A 'running' row here was left by a worker that died mid-rollout: this run replaces it.
    if (existing) await db.rollout.delete({ where: { id: existing.id } });
  }
  const version = await getVersion(db, req.versionId);
  if (!version) throw new Error(`environment version ${req.versionId} not found`);

  const started = Date.now();
  const row = await db.rollout.create({
    data: {
      versionId: req.versionId,
      groupId: req.groupId ?? null,
      attempt: req.attempt,
      generationId: req.generationId ?? null,
      lineageId: req.lineageId ?? null,
      policy: req.policy.name,
      policyVersion: req.policy.version,
      model: req.policy.model ?? null,
      simulated: req.policy.simulated,
      seed: req.seed,
      status: 'running',
      jobId: req.jobId ?? null,
    },
  });
  // The running row counts in its version's median turns (with 0 turns) like any other.
  await refreshSuspicion(db, [req.versionId]);

  let recorder: TrajectoryRecorder | undefined;
  let imageId: string | null = null;
  let stored: Rollout;
  try {
    const bundle = await loadBundle(db, req.versionId);
    const config = parseTaskConfig(bundleFile(bundle, 'task.toml')?.content.toString('utf8') ?? '');
    if (!config.ok) throw new Error(`task.toml: ${config.error}`);
    const sequence = version.metadata.sequence === undefined ? undefined : parseSequence(version.metadata.sequence);
    const instruction = bundleFile(bundle, 'instruction.md')?.content.toString('utf8') ?? '';
    const maxTurns = req.maxTurns ?? DEFAULT_MAX_TURNS;
    // A caller's own budget must fit the ceiling; the task's is clamped to it (and recorded).
    const ceiling = configuredCeilings().agentTimeoutSec;
    if (req.agentTimeoutSec !== undefined && !(req.agentTimeoutSec > 0 && req.agentTimeoutSec <= ceiling))
      throw new Error(`agentTimeoutSec must be in (0, ${ceiling}] (${CEILING_SETTINGS.agentTimeoutSec}), got ${req.agentTimeoutSec}`);
    const resources = taskResources(config.config, { agentTimeoutSec: req.agentTimeoutSec });
    const { agentTimeoutSec } = resources;

    imageId = (await deps.sandbox.buildEnvironmentImage(bundle, { timeoutSec: config.config.environment.build_timeout_sec })).imageId;
    await db.rollout.update({ where: { id: row.id }, data: { imageId } });

    const rec = (recorder = new TrajectoryRecorder(instruction, maxTurns));
    const trial = await deps.sandbox.runTrial({
      bundle,
      imageId,
      agent: {
        kind: 'interactive',
        copySolution: req.policy.usesSolution === true,
        commandTimeoutSec: Math.min(req.commandTimeoutSec ?? 600, agentTimeoutSec),
        drive: (terminal, signal) => drivePolicy(req, { bundle, instruction, sequence, maxTurns }, rec, terminal, signal),
      },
      limits: resources.limits,
      agentTimeoutSec,
      verifierTimeoutSec: resources.verifierTimeoutSec,
      resources: resources.uses,
      timeoutReward: req.timeoutReward ?? 0,
      labels: { ...req.labels, 'envolve.rollout': row.id, 'envolve.version': req.versionId },
      captureOutputs: { dirsWhenWorkdirIsRoot: WORK_DIRS_WITHOUT_WORKDIR },
    });
    const changed = await storeChangedFiles(db, trial.outputs?.files ?? []);
    stored = await finishRollout(db, row.id, req, trial, rec.steps, changed, Date.now() - started);
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    stored = await db.$transaction(async (tx) => {
      if (recorder) await tx.trajectoryStep.createMany({ data: recorder.steps.map((s) => stepRow(row.id, s)) });
      return tx.rollout.update({
        where: { id: row.id },
        data: { status: 'error', error, imageId, turns: recorder?.turns ?? 0, durationMs: Date.now() - started, finishedAt: new Date() },
      });
    });
    rethrowIfStopping(err);
  }
  // After the rollout's transaction, not in it (see suspicion-store.ts), and outside the try: a
  // failed refresh must not turn a finished rollout into an error.
  await refreshSuspicion(db, [req.versionId]);
  return summariseRollout(stored);
}

interface EpisodeContext {
  bundle: TaskBundle;
  instruction: string;
  sequence: Sequence | undefined;
  maxTurns: number;
}

async function drivePolicy(req: RolloutRequest, ctx: EpisodeContext, recorder: TrajectoryRecorder, terminal: Terminal, signal: AbortSignal): Promise<void> {
  try {
    await req.policy.act({
      task: ctx.bundle,
      instruction: ctx.instruction,
      sequence: ctx.sequence,
      seed: req.seed,
      attempt: req.attempt,
      terminal: recorder.wrap(terminal),
      note: (turn) => recorder.note(turn),
      signal,
      maxTurns: ctx.maxTurns,
    });
  } catch (err) {
    if (!(err instanceof TurnLimitReached)) throw err;
  } finally {
    recorder.finish();
  }
}

function sumOf(steps: RecordedStep[], key: 'promptTokens' | 'completionTokens' | 'cachedTokens'): number | null {
  const known = steps.map((s) => s[key]).filter((n): n is number => n !== undefined);
  return known.length ? known.reduce((a, b) => a + b, 0) : null;
}

async function finishRollout(
  db: Db,
  id: string,
  req: RolloutRequest,
  trial: TrialResult,
  steps: RecordedStep[],
  changed: ChangedFile[],
  durationMs: number,
): Promise<Rollout> {
  const threshold = req.passThreshold ?? 1;
  const passed = trial.status === 'error' ? null : trial.status === 'completed' && trial.reward !== null && trial.reward >= threshold;
  const commands = steps.filter((s) => s.command !== undefined);
  const touchedProtected = trial.protectedPathsTouched === true || commands.some((s) => touchesProtected(s.command!));
  return db.$transaction(async (tx) => {
    await tx.trajectoryStep.createMany({ data: steps.map((s) => stepRow(id, s)) });
    return tx.rollout.update({
      where: { id },
      data: {
        status: trial.status,
        reward: trial.reward,
        passed,
        timedOut: trial.timedOut,
        turns: commands.length,
        durationMs,
        agentDurationMs: trial.agent.durationMs,
        verifierDurationMs: trial.verifier?.durationMs ?? 0,
        promptTokens: sumOf(steps, 'promptTokens'),
        completionTokens: sumOf(steps, 'completionTokens'),
        cachedTokens: sumOf(steps, 'cachedTokens'),
        rewardDetail: trial.rewardDetail ? JSON.stringify(trial.rewardDetail) : null,
        verifierLog: trial.verifier?.log ?? '',
        verifierExitCode: trial.verifier?.exitCode ?? null,
        ctrf: trial.ctrf === undefined ? null : JSON.stringify(trial.ctrf),
        changedFiles: JSON.stringify(changed),
        touchedProtected,
        error: trial.error ?? null,
        imageId: trial.imageId,
        sandboxRuntime: trial.runtime,
        phaseMs: trial.phaseMs ? JSON.stringify(trial.phaseMs) : null,
        atif: JSON.stringify(rolloutExtras(trial)),
        finishedAt: new Date(),
      },
    });
  });
}

// What the trial knows beyond the columns, kept in the ATIF extra of the export.
function rolloutExtras(trial: TrialResult): Record<string, unknown> {
  return {
    extra: {
      envolve: {
        ...(trial.timedOutPhase ? { timed_out_phase: trial.timedOutPhase } : {}),
        ...(trial.outputs?.truncated ? { changed_files_truncated: true } : {}),
        containment: trial.containment,
      },
    },
  };
}

export function stepRow(rolloutId: string, s: RecordedStep) {
  return {
    rolloutId,
    stepId: s.stepId,
    source: s.source,
    message: s.message,
    reasoning: s.reasoning ?? null,
    command: s.command ?? null,
    output: s.output ?? null,
    exitCode: s.exitCode ?? null,
    durationMs: s.durationMs ?? null,
    timedOut: s.timedOut,
    promptTokens: s.promptTokens ?? null,
    completionTokens: s.completionTokens ?? null,
    cachedTokens: s.cachedTokens ?? null,
    extra: s.outputTruncated ? JSON.stringify({ extra: { output_truncated: true } }) : null,
    timestamp: s.timestamp,
  };
}
