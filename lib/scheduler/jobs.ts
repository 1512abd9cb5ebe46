// Probes as queued jobs: a generation approved by review is probed, and a lineage whose
// frontier has no probe yet gets one. Probes run ahead of background evolution.
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { enqueue } from '../queue/enqueue.ts';
import type { Job } from '../queue/types.ts';
import { advanceLineage, type AdvanceResult } from './frontier.ts';

export const PROBE_JOB = 'probe';

export const probeJobPayload = z.object({
  versionId: z.string().min(1),
  generationId: z.string().min(1).optional(),
  lineageId: z.string().min(1).optional(),
});

export type ProbeJobPayload = z.infer<typeof probeJobPayload>;

export function enqueueProbe(db: Db, payload: ProbeJobPayload, options: { dedupeKey?: string } = {}): Promise<Job> {
  return enqueue(db, PROBE_JOB, probeJobPayload.parse(payload), { priority: 2, maxAttempts: 3, dedupeKey: options.dedupeKey });
}

// Advances the lineage, and queues the probe its frontier is waiting for (once per version).
export async function scheduleLineage(db: Db, lineageId: string, releaseAt: number): Promise<AdvanceResult & { probeJobId?: string }> {
  const result = await advanceLineage(db, lineageId, releaseAt);
  const last = result.steps.at(-1);
  if (last?.kind !== 'needs-probe') return result;
  const generation = last.generation === 0
    ? null
    : await db.generation.findFirst({ where: { lineageId, number: last.generation, state: 'released' }, select: { id: true } });
  const job = await enqueueProbe(
    db,
    { versionId: last.versionId, lineageId, ...(generation ? { generationId: generation.id } : {}) },
    { dedupeKey: `probe:${lineageId}:${last.versionId}` },
  );
  return { ...result, probeJobId: job.id };
}
