// The trajectory as a human judges it: the instruction (once), each command the agent ran with
// its output, and the files the agent produced, read from their blobs. Built from the blind
// allow-list (blind.ts) with selects that never touch the verifier's columns, so no caller of
// this read model can leak the verdict, the policy or the agent's own notes to an annotator.
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { BLIND_ARTIFACT_FIELDS, BLIND_TURN_FIELDS, pick } from './blind.ts';
import { CalibrationNotFoundError } from './errors.ts';

/** Artifacts larger than this are listed but not inlined. */
export const ARTIFACT_INLINE_BYTES = 64 * 1024;

export interface TrajectoryTurn {
  stepId: number;
  command: string;
  output: string | null;
  exitCode: number | null;
}

export interface Artifact {
  path: string;
  size: number;
  /** UTF-8 text, or null when the file is binary or too large to show. */
  text: string | null;
  omitted: 'binary' | 'too-large' | 'missing' | null;
}

export interface TrajectoryView {
  environmentName: string;
  instruction: string;
  turns: TrajectoryTurn[];
  artifacts: Artifact[];
}

const changedFileSchema = z.array(z.object({ path: z.string(), size: z.number(), blobHash: z.string() }));

export function parseChangedFiles(json: string): z.infer<typeof changedFileSchema> {
  return changedFileSchema.parse(JSON.parse(json));
}

function asText(content: Uint8Array): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(content);
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  }
}

// An evolved environment is named after its lineage and generation (`seed-logs-awk-g4`, and its
// instruction is titled so): the generation says how far the task was pushed, which is not the
// annotator's to weigh. The item shows the environment as its lineage's, title included.
const GENERATION_SUFFIX = /-g[0-9]+$/;

export function withoutGeneration(environment: { name: string; instruction: string }): { name: string; instruction: string } {
  const name = environment.name.replace(GENERATION_SUFFIX, '');
  const [title, ...rest] = environment.instruction.split('\n');
  const instruction = title === `# ${environment.name}` ? [`# ${name}`, ...rest].join('\n') : environment.instruction;
  return { name, instruction };
}

export async function trajectoryView(db: Db, rolloutId: string): Promise<TrajectoryView> {
  const rollout = await db.rollout.findUnique({
    where: { id: rolloutId },
    select: {
      changedFiles: true,
      version: { select: { name: true, instruction: true } },
      steps: {
        orderBy: { stepId: 'asc' },
        where: { command: { not: null } }, // the instruction step and the agent's notes run nothing
        select: { stepId: true, command: true, output: true, exitCode: true },
      },
    },
  });
  if (!rollout) throw new CalibrationNotFoundError(`trajectory ${rolloutId} not found`);
  const files = parseChangedFiles(rollout.changedFiles);
  const blobs = await db.blob.findMany({
    where: { hash: { in: files.filter((f) => f.size <= ARTIFACT_INLINE_BYTES).map((f) => f.blobHash) } },
    select: { hash: true, content: true },
  });
  const artifacts = files
    .map((f): Artifact => {
      if (f.size > ARTIFACT_INLINE_BYTES) return { path: f.path, size: f.size, text: null, omitted: 'too-large' };
      const blob = blobs.find((b) => b.hash === f.blobHash);
      if (!blob) return { path: f.path, size: f.size, text: null, omitted: 'missing' };
      const text = asText(blob.content);
      return { path: f.path, size: f.size, text, omitted: text === null ? 'binary' : null };
    })
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  const environment = withoutGeneration(rollout.version);
  return {
    environmentName: environment.name,
    instruction: environment.instruction,
    turns: rollout.steps.map((step) => pick({ ...step, command: step.command ?? '' }, BLIND_TURN_FIELDS)),
    artifacts: artifacts.map((a) => pick(a, BLIND_ARTIFACT_FIELDS)),
  };
}
