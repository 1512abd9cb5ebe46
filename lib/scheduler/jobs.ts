// Probes as queued jobs: a generation approved by review is probed, and a lineage whose
// frontier has no probe yet gets one. Probes run ahead of background evolution.
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { enqueue, type JobWriter } from '../queue/index.ts';
import type { Job } from '../queue/index.ts';
import type { SchedulerConfig } from './config.ts';
import { advanceLineage, type AdvanceResult } from './frontier.ts';
import { lineageGate } from '../gate/index.ts';
import { GenerationState } from '../states/index.ts';

export const PROBE_JOB = 'probe';

export const probeJobPayload = z.object({
  versionId: z.string().min(1),
  generationId: z.string().min(1).optional(),
  lineageId: z.string().min(1).optional(),
});

export type ProbeJobPayload = z.infer<typeof probeJobPayload>;

export function enqueueProbe(db: JobWriter, payload: ProbeJobPayload, options: { dedupeKey?: string } = {}): Promise<Job> {
  return enqueue(db, PROBE_JOB, probeJobPayload.parse(payload), { priority: 2, maxAttempts: 3, dedupeKey: options.dedupeKey });
}

// Advances the lineage, and queues the probe its frontier is waiting for (once per version and
// probe policy: the job runs the lineage's probe policy when it starts).
export async function scheduleLineage(db: Db, lineageId: string, config: SchedulerConfig): Promise<AdvanceResult & { probeJobId?: string }> {
  const result = await advanceLineage(db, lineageId, config);
  const last = result.steps.at(-1);
  if (last?.kind !== 'needs-probe') return result;
  const generation =
    last.generation === 0
      ? null
      : await db.generation.findFirst({ where: { lineageId, number: last.generation, state: GenerationState.released }, select: { id: true } });
  const job = await enqueueProbe(
    db,
    { versionId: last.versionId, lineageId, ...(generation ? { generationId: generation.id } : {}) },
    { dedupeKey: `probe:${lineageId}:${last.versionId}:${result.rule.policy}` },
  );
  return { ...result, probeJobId: job.id };
}

export interface ProbeSettings {
  policy: string;
  size: number;
  timeoutReward: number;
}

// What a probe of a lineage runs: its probe policy, enough rollouts for its rule, and its
// timeout reward. A version probed outside any lineage uses the scheduler's defaults.
export async function probeSettings(db: Db, lineageId: string | undefined, config: SchedulerConfig): Promise<ProbeSettings> {
  const lineage = lineageId ? await db.lineage.findUnique({ where: { id: lineageId } }) : null;
  const rule = lineage ? lineageGate(lineage, config) : lineageGate(NO_OVERRIDES, config);
  return { policy: rule.policy, size: Math.max(config.probeSize, rule.minGroup), timeoutReward: rule.timeoutReward };
}

const NO_OVERRIDES = { probePolicy: null, releaseRate: null, minGroup: null, timeoutReward: null, demoMode: false };

// The probe policy of the lineage a version belongs to (as its seed or a generation), else the
// scheduler's: what `envolve profile` measures latency under unless told otherwise.
export async function probePolicyOfVersion(db: Db, versionId: string, config: SchedulerConfig): Promise<string> {
  const lineage =
    (await db.lineage.findFirst({ where: { seedVersionId: versionId }, orderBy: { createdAt: 'asc' } })) ??
    (await db.generation.findFirst({ where: { versionId }, orderBy: { createdAt: 'asc' }, select: { lineage: true } }))?.lineage ??
    null;
  return lineage ? lineageGate(lineage, config).policy : config.probePolicy;
}
