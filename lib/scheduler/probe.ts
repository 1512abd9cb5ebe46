// A probe: `size` rollouts of one policy on one environment version, attempt numbers 1..size,
// run with bounded concurrency; the group's counts are what the gate reads.
import { createHash } from 'node:crypto';
import type { Db, ProbeGroup } from '../db/index.ts';
import { buildVersionImage, runRollout } from '../rollout/index.ts';
import type { Policy } from '../rollout/index.ts';
import type { Sandbox } from '../sandbox/index.ts';
import { DEFAULT_SCHEDULER_CONFIG } from './config.ts';
import { finishGroup, groupPolicyVersion, recountGroup, type GroupPurpose } from '../gate/index.ts';
import pLimit from 'p-limit';

export interface ProbeDeps {
  db: Db;
  sandbox: Sandbox;
}

export interface ProbeRequest {
  versionId: string;
  policy: Policy;
  generationId?: string;
  lineageId?: string;
  size?: number;
  concurrency?: number;
  passThreshold?: number;
  purpose?: GroupPurpose;
  evalSet?: string;
  seed?: number; // rollout i runs with seed + i; default derived from the version
  jobId?: string; // a retried job resumes its group instead of starting another
  agentTimeoutSec?: number;
  timeoutReward?: number; // the lineage's: what a timed-out rollout is worth (default 0)
  labels?: Record<string, string>;
  progress?: (message: string) => void;
}

export interface ProbeSummary {
  groupId: string;
  versionId: string;
  state: string;
  size: number;
  passes: number;
  completed: number;
  timeouts: number;
  errors: number;
  meanTurns: number | null;
  rolloutIds: string[];
  durationMs: number;
}

function defaultSeed(versionId: string): number {
  return createHash('sha256').update(versionId).digest().readUInt32BE(0) % 1_000_000;
}

async function openGroup(db: Db, req: ProbeRequest, size: number, passThreshold: number): Promise<ProbeGroup> {
  if (req.jobId) {
    const resumed = await db.probeGroup.findFirst({ where: { jobId: req.jobId, versionId: req.versionId } });
    if (resumed) return resumed;
  }
  return db.probeGroup.create({
    data: {
      versionId: req.versionId,
      generationId: req.generationId ?? null,
      lineageId: req.lineageId ?? null,
      purpose: req.purpose ?? 'probe',
      policy: req.policy.name,
      policyVersion: groupPolicyVersion(req.policy),
      simulated: req.policy.simulated,
      size,
      passThreshold,
      evalSet: req.evalSet ?? null,
      jobId: req.jobId ?? null,
    },
  });
}

export async function probeVersion(deps: ProbeDeps, req: ProbeRequest): Promise<ProbeSummary> {
  const started = Date.now();
  const size = req.size ?? DEFAULT_SCHEDULER_CONFIG.probeSize;
  const passThreshold = req.passThreshold ?? DEFAULT_SCHEDULER_CONFIG.passThreshold;
  const seed = req.seed ?? defaultSeed(req.versionId);
  // An image that does not build fails the probe here, once, and opens no group.
  await buildVersionImage(deps, req.versionId);
  const group = await openGroup(deps.db, req, size, passThreshold);
  const attempts = Array.from({ length: size }, (_, i) => i + 1);
  const rollouts = await pLimit(req.concurrency ?? DEFAULT_SCHEDULER_CONFIG.probeConcurrency).map(attempts, async (attempt) => {
    const rollout = await runRollout(deps, {
      versionId: req.versionId,
      policy: req.policy,
      seed: seed + attempt,
      attempt,
      groupId: group.id,
      generationId: req.generationId,
      lineageId: req.lineageId,
      passThreshold,
      jobId: req.jobId,
      agentTimeoutSec: req.agentTimeoutSec,
      timeoutReward: req.timeoutReward,
      labels: req.labels,
    });
    await recountGroup(deps.db, group.id);
    req.progress?.(`rollout ${attempt}/${size}: ${rollout.status}, reward ${rollout.reward ?? '–'}, ${rollout.turns} turns`);
    return rollout;
  });
  const finished = await finishGroup(deps.db, group.id);
  const turns = rollouts.filter((r) => r.status !== 'error').map((r) => r.turns);
  return {
    groupId: finished.id,
    versionId: finished.versionId,
    state: finished.state,
    size: finished.size,
    passes: finished.passes,
    completed: finished.completed,
    timeouts: finished.timeouts,
    errors: finished.errors,
    meanTurns: turns.length ? turns.reduce((a, b) => a + b, 0) / turns.length : null,
    rolloutIds: rollouts.map((r) => r.id),
    durationMs: Date.now() - started,
  };
}
