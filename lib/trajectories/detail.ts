// One trajectory for /trajectories/[id]: the header, the instruction, every turn with its
// output cut to a preview in SQL (outputs are stored whole and can be megabytes), the
// verifier, per-test results and the files the agent changed.
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { Prisma } from '../db/index.ts';
import { parseCtrf, type CtrfTest } from './ctrf.ts';
import { medianTurns } from './list.ts';
import { suspicionReasons, touchesProtected, type SuspicionReason } from './suspicion.ts';

export const OUTPUT_PREVIEW_CHARS = 2000;
export const OUTPUT_PREVIEW_LINES = 40;

export const rolloutIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a trajectory id is 1–64 letters, digits, "_" or "-"');
export const rolloutParamsSchema = z.object({ id: rolloutIdSchema });
export const changedFileQuerySchema = z.object({ path: z.string({ error: 'path is required' }).min(1, 'path is required').max(1000) });
export const stepParamsSchema = z.object({ id: rolloutIdSchema, stepId: z.coerce.number().int().min(1).max(1_000_000) });

export interface TurnView {
  stepId: number;
  // The step's number among the agent's commands, as the rollout's turn count counts them
  // (1 … turns); null for a step without a command (a message, the system).
  turn: number | null;
  source: string;
  message: string;
  reasoning: string | null;
  command: string | null;
  outputPreview: string | null; // at most OUTPUT_PREVIEW_CHARS characters and OUTPUT_PREVIEW_LINES lines
  outputLength: number; // characters of the whole output
  exitCode: number | null;
  durationMs: number | null;
  timedOut: boolean;
  tokens: number | null;
  touchesProtected: boolean;
}

export interface ChangedFile {
  path: string;
  size: number;
  blobHash: string;
}

export interface TrajectoryDetail {
  id: string;
  version: { id: string; name: string; compromisedAt: string | null; compromisedReason: string | null };
  imageId: string | null;
  lineage: { id: string; name: string } | null;
  generation: { id: string; number: number } | null;
  groupId: string | null;
  policy: string;
  policyVersion: string;
  model: string | null;
  simulated: boolean;
  seed: number;
  attempt: number;
  status: string;
  reward: number | null;
  passed: boolean | null;
  timedOut: boolean;
  turns: number;
  durationMs: number;
  agentDurationMs: number;
  verifierDurationMs: number;
  tokens: { prompt: number | null; completion: number | null; cached: number | null };
  error: string | null;
  instruction: string;
  steps: TurnView[];
  verifier: { log: string; exitCode: number | null; rewardDetail: string | null; tests: CtrfTest[] | null };
  changedFiles: ChangedFile[];
  reasons: SuspicionReason[];
  medianTurns: number | null;
  flaggedAt: string | null;
  flaggedBy: string | null;
  createdAt: string;
}

const changedFilesSchema = z.array(z.object({ path: z.string(), size: z.number(), blobHash: z.string() }));

export function parseChangedFiles(text: string): ChangedFile[] {
  try {
    const parsed = changedFilesSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** The first lines of an output, within both the character and the line budget. */
export function previewOf(head: string): string {
  const lines = head.split('\n');
  return lines.length > OUTPUT_PREVIEW_LINES ? lines.slice(0, OUTPUT_PREVIEW_LINES).join('\n') : head;
}

interface StepRow {
  stepId: number | bigint;
  source: string;
  message: string;
  reasoning: string | null;
  command: string | null;
  outputHead: string | null;
  outputLength: number | bigint | null;
  exitCode: number | bigint | null;
  durationMs: number | bigint | null;
  timedOut: boolean | number;
  promptTokens: number | bigint | null;
  completionTokens: number | bigint | null;
}

const num = (value: number | bigint | null): number | null => (value === null ? null : Number(value));

/** Every step of a trajectory with output previews; never reads a whole output. */
export async function trajectorySteps(db: Db, rolloutId: string): Promise<TurnView[]> {
  const rows = await db.$queryRaw<StepRow[]>(Prisma.sql`
    SELECT "stepId", "source", "message", "reasoning", "command",
      SUBSTR("output", 1, ${OUTPUT_PREVIEW_CHARS}) AS "outputHead", LENGTH("output") AS "outputLength",
      "exitCode", "durationMs", "timedOut", "promptTokens", "completionTokens"
    FROM "TrajectoryStep" WHERE "rolloutId" = ${rolloutId} ORDER BY "stepId"`);
  let turns = 0;
  return rows.map((row) => {
    const prompt = num(row.promptTokens);
    const completion = num(row.completionTokens);
    return {
      stepId: Number(row.stepId),
      turn: row.command === null ? null : ++turns,
      source: row.source,
      message: row.message,
      reasoning: row.reasoning,
      command: row.command,
      outputPreview: row.outputHead === null ? null : previewOf(row.outputHead),
      outputLength: num(row.outputLength) ?? 0,
      exitCode: num(row.exitCode),
      durationMs: num(row.durationMs),
      timedOut: Boolean(row.timedOut),
      tokens: prompt === null && completion === null ? null : (prompt ?? 0) + (completion ?? 0),
      touchesProtected: row.command !== null && touchesProtected(row.command),
    };
  });
}

export async function getTrajectory(db: Db, id: string): Promise<TrajectoryDetail | null> {
  const rollout = await db.rollout.findUnique({
    where: { id },
    include: { version: { select: { id: true, name: true, instruction: true, compromisedAt: true, compromisedReason: true } } },
  });
  if (!rollout) return null;
  const [steps, lineage, generation, flaggedBy, medians] = await Promise.all([
    trajectorySteps(db, id),
    rollout.lineageId ? db.lineage.findUnique({ where: { id: rollout.lineageId }, select: { id: true, name: true } }) : null,
    rollout.generationId ? db.generation.findUnique({ where: { id: rollout.generationId }, select: { id: true, number: true } }) : null,
    rollout.flaggedById ? db.user.findUnique({ where: { id: rollout.flaggedById }, select: { email: true } }) : null,
    medianTurns(db, [rollout.versionId]),
  ]);
  const changedFiles = parseChangedFiles(rollout.changedFiles);
  const median = medians.get(rollout.versionId) ?? null;
  // Step 1 is the instruction as the agent received it; the version's is the fallback.
  const instructionStep = steps.find((step) => step.source === 'user');
  return {
    id: rollout.id,
    version: {
      id: rollout.version.id,
      name: rollout.version.name,
      compromisedAt: rollout.version.compromisedAt?.toISOString() ?? null,
      compromisedReason: rollout.version.compromisedReason,
    },
    imageId: rollout.imageId,
    lineage,
    generation,
    groupId: rollout.groupId,
    policy: rollout.policy,
    policyVersion: rollout.policyVersion,
    model: rollout.model,
    simulated: rollout.simulated,
    seed: rollout.seed,
    attempt: rollout.attempt,
    status: rollout.status,
    reward: rollout.reward,
    passed: rollout.passed,
    timedOut: rollout.timedOut,
    turns: rollout.turns,
    durationMs: rollout.durationMs,
    agentDurationMs: rollout.agentDurationMs,
    verifierDurationMs: rollout.verifierDurationMs,
    tokens: { prompt: rollout.promptTokens, completion: rollout.completionTokens, cached: rollout.cachedTokens },
    error: rollout.error,
    instruction: instructionStep?.message || rollout.version.instruction,
    steps: steps.filter((step) => step !== instructionStep),
    verifier: {
      log: rollout.verifierLog,
      exitCode: rollout.verifierExitCode,
      rewardDetail: rollout.rewardDetail,
      tests: parseCtrf(rollout.ctrf),
    },
    changedFiles,
    reasons: suspicionReasons({
      reward: rollout.reward,
      turns: rollout.turns,
      medianTurns: median,
      noArtifact: changedFiles.length === 0,
      touchedProtected: rollout.touchedProtected,
    }),
    medianTurns: median,
    flaggedAt: rollout.flaggedAt?.toISOString() ?? null,
    flaggedBy: flaggedBy?.email ?? null,
    createdAt: rollout.createdAt.toISOString(),
  };
}

/** The whole output of one step, or null when the step does not exist. */
export async function stepOutput(db: Db, rolloutId: string, stepId: number): Promise<string | null> {
  const step = await db.trajectoryStep.findUnique({ where: { rolloutId_stepId: { rolloutId, stepId } }, select: { output: true } });
  return step ? (step.output ?? '') : null;
}

/** The content of a file the agent changed, as text; null when the rollout did not change that path. */
export async function changedFileContent(
  db: Db,
  rolloutId: string,
  path: string,
): Promise<{ path: string; size: number; content: string; binary: boolean } | null> {
  const rollout = await db.rollout.findUnique({ where: { id: rolloutId }, select: { changedFiles: true } });
  const file = rollout && parseChangedFiles(rollout.changedFiles).find((f) => f.path === path);
  if (!file) return null;
  const blob = await db.blob.findUnique({ where: { hash: file.blobHash }, select: { content: true, size: true } });
  if (!blob) return { path, size: file.size, content: '', binary: false };
  const bytes = Buffer.from(blob.content);
  const binary = bytes.subarray(0, 8000).includes(0);
  return { path, size: blob.size, content: binary ? '' : bytes.toString('utf8'), binary };
}

/** Other trajectories of the same version, for "compare with…": highest reward first. */
export async function siblingTrajectories(db: Db, rolloutId: string, versionId: string, limit = 50) {
  const rows = await db.rollout.findMany({
    where: { versionId, id: { not: rolloutId } },
    orderBy: [{ reward: { sort: 'desc', nulls: 'last' } }, { createdAt: 'desc' }],
    take: limit,
    select: { id: true, policy: true, attempt: true, reward: true, turns: true, simulated: true },
  });
  return rows;
}
