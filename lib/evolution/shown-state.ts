// What a page says a lineage and its generations are doing, true at the moment it is read. The
// stored lineage status is written by the evolution once it runs, so while its job waits for a
// worker (or a worker has claimed it but no generation began) the stored word would still say
// "idle". And a generation still in its loops on a version that was superseded meanwhile is only
// marked superseded when it settles (supersede.ts): until then it is shown set aside, not at work.
import type { Db } from '../db/index.ts';
import { JobState } from '../queue/index.ts';
import { GenerationState, inGroup, IN_PROGRESS_STATES, LineageStatus, LineageWorkStatus } from '../states/index.ts';
import { EVOLVE_JOB, evolveJobPayload, REVALIDATE_JOB, revalidateJobPayload, REVISE_JOB, reviseJobPayload } from './jobs.ts';
import { incoherentGenerations, type LineageLink } from './supersede.ts';

/** The queue's work for one lineage: a job waiting for a worker, a job a worker holds. */
export interface LineageWork {
  queued: boolean;
  running: boolean;
}

export const NO_WORK: LineageWork = { queued: false, running: false };

/**
 * The status shown for a lineage: a generation in its loops is evolving whatever was stored; a
 * held generation waits on a person before any job can go on; otherwise a claimed job that has
 * not begun a generation is starting and a job no worker claimed is queued.
 */
export function shownLineageStatus(stored: string, work: LineageWork, generationInProgress: boolean): string {
  if (generationInProgress || stored === LineageStatus.evolving) return LineageStatus.evolving;
  if (stored === LineageStatus.needsAttention) return stored;
  if (work.running) return LineageWorkStatus.starting;
  if (work.queued) return LineageWorkStatus.queued;
  return stored;
}

const LINEAGE_JOBS = [EVOLVE_JOB, REVISE_JOB, REVALIDATE_JOB];

// The lineage (evolve) or generation (revise, revalidate) a job works on; null for a payload this
// code cannot read, which no worker could run either.
function jobTarget(kind: string, payload: string): { lineageId: string } | { generationId: string } | null {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return null;
  }
  if (kind === EVOLVE_JOB) {
    const parsed = evolveJobPayload.safeParse(json);
    return parsed.success ? { lineageId: parsed.data.lineageId } : null;
  }
  const parsed = (kind === REVISE_JOB ? reviseJobPayload : revalidateJobPayload).safeParse(json);
  return parsed.success ? { generationId: parsed.data.generationId } : null;
}

/** The queue's unfinished work for each of the lineages (absent: none), in two queries. */
export async function lineageWork(db: Db, lineageIds: readonly string[]): Promise<Map<string, LineageWork>> {
  const work = new Map<string, LineageWork>();
  if (lineageIds.length === 0) return work;
  const jobs = await db.job.findMany({
    where: { kind: { in: LINEAGE_JOBS }, state: { in: [JobState.queued, JobState.running] } },
    select: { kind: true, state: true, payload: true },
  });
  const targets = jobs.flatMap((job) => {
    const target = jobTarget(job.kind, job.payload);
    return target ? [{ ...target, running: job.state === JobState.running }] : [];
  });
  const generationIds = targets.flatMap((t) => ('generationId' in t ? [t.generationId] : []));
  const owners =
    generationIds.length === 0
      ? new Map<string, string>()
      : new Map(
          (await db.generation.findMany({ where: { id: { in: generationIds } }, select: { id: true, lineageId: true } })).map((g) => [g.id, g.lineageId]),
        );
  const wanted = new Set(lineageIds);
  for (const target of targets) {
    const lineageId = 'lineageId' in target ? target.lineageId : owners.get(target.generationId);
    if (!lineageId || !wanted.has(lineageId)) continue;
    const entry = work.get(lineageId) ?? { ...NO_WORK };
    if (target.running) entry.running = true;
    else entry.queued = true;
    work.set(lineageId, entry);
  }
  return work;
}

export interface ShownGeneration extends LineageLink {
  id: string;
  number: number;
  error: string | null;
}

/**
 * The generations as shown: one still in its loops on a version that is no longer current is
 * shown superseded, with why, since whatever it settles on is set aside (supersede.ts).
 */
export function shownGenerations<T extends ShownGeneration>(seedVersionId: string, generations: readonly T[]): T[] {
  const setAside = new Set(
    incoherentGenerations(seedVersionId, generations)
      .filter((g) => inGroup(g.state, IN_PROGRESS_STATES))
      .map((g) => g.id),
  );
  return generations.map((g) => {
    if (!setAside.has(g.id)) return g;
    const parent = generations.find((p) => p.versionId === g.parentVersionId);
    const on = parent ? `generation ${parent.number}'s version, which is ${parent.state.replaceAll('-', ' ')}` : 'a version no generation holds any longer';
    return {
      ...g,
      state: GenerationState.superseded,
      error: `superseded: built on ${on}; its ${g.state.replaceAll('-', ' ')} loop still running is set aside when it settles`,
    };
  });
}
