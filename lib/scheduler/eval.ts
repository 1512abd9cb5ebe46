// `envolve eval SET`: a policy over every version of a held-out set, each version probed as a
// group of the eval purpose; the report names each version and the image it ran on.
import type { Db } from '../db/index.ts';
import type { Policy } from '../rollout/index.ts';
import type { Sandbox } from '../sandbox/index.ts';
import { versionSandbox } from '../evolution/index.ts';
import { versionsOfSet } from './held-out.ts';
import { probeVersion } from './probe.ts';

export interface EvalRequest {
  set: string;
  policy: Policy;
  attempts: number; // rollouts per version
  concurrency: number;
  passThreshold: number;
  seed?: number;
  progress?: (message: string) => void;
}

export interface EvalVersionResult {
  versionId: string;
  name: string;
  imageIds: string[];
  groupId: string;
  passes: number;
  size: number;
  timeouts: number;
  errors: number;
}

export interface EvalReport {
  set: string;
  policy: string;
  policyVersion: string;
  simulated: boolean;
  versions: EvalVersionResult[];
  passes: number;
  rollouts: number; // rollouts that finished (timeouts included; sandbox errors excluded)
  passRate: number | null;
}

export async function evaluateHeldOutSet(deps: { db: Db; sandbox: Sandbox }, req: EvalRequest): Promise<EvalReport> {
  const versionIds = await versionsOfSet(deps.db, req.set);
  if (versionIds.length === 0) throw new Error(`held-out set "${req.set}" has no environment versions`);
  const versions: EvalVersionResult[] = [];
  for (const versionId of versionIds) {
    req.progress?.(`${versionId.slice(0, 12)}: ${req.attempts} rollouts of ${req.policy.name}`);
    // Under the runtime of the lineage the version belongs to, as its probes ran.
    const summary = await probeVersion(
      { db: deps.db, sandbox: await versionSandbox(deps.db, deps.sandbox, versionId) },
      {
        versionId,
        policy: req.policy,
        size: req.attempts,
        concurrency: req.concurrency,
        passThreshold: req.passThreshold,
        purpose: 'eval',
        evalSet: req.set,
        seed: req.seed,
      },
    );
    const rollouts = await deps.db.rollout.findMany({ where: { groupId: summary.groupId }, select: { imageId: true } });
    const version = await deps.db.environmentVersion.findUniqueOrThrow({ where: { id: versionId }, select: { name: true } });
    versions.push({
      versionId,
      name: version.name,
      imageIds: [...new Set(rollouts.map((r) => r.imageId).filter((id): id is string => id !== null))],
      groupId: summary.groupId,
      passes: summary.passes,
      size: summary.size,
      timeouts: summary.timeouts,
      errors: summary.errors,
    });
  }
  const passes = versions.reduce((n, v) => n + v.passes, 0);
  const rollouts = versions.reduce((n, v) => n + v.size - v.errors, 0);
  return {
    set: req.set,
    policy: req.policy.name,
    policyVersion: req.policy.version,
    simulated: req.policy.simulated,
    versions,
    passes,
    rollouts,
    passRate: rollouts > 0 ? passes / rollouts : null,
  };
}
