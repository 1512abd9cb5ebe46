// The deployment's resource ceilings (ENVOLVE_MAX_*) applied to what a task asks for: each
// resource is clamped to its ceiling, and the run records, per resource, the value asked, the
// value used and the ceiling, so a trial that ran with less than its task.toml says shows it.
import { settings, type ResourceCeilings, type ResourceName } from '../config/index.ts';
import type { Limits, TrialRequest } from './types.ts';

export interface ResourceUse {
  asked: number; // what the task.toml (or its default) asked for
  used: number; // what the run got: the asked value, or the ceiling when that is lower
  ceiling: number;
}

export type ResourceUses = Partial<Record<ResourceName, ResourceUse>>;

export function configuredCeilings(): ResourceCeilings {
  return settings().sandbox.ceilings;
}

export function useOf(asked: number, ceiling: number): ResourceUse {
  return { asked, used: Math.min(asked, ceiling), ceiling };
}

/**
 * Container limits within the ceilings: a caller that sets its own limits (a rubric check, a
 * compose trial) still cannot exceed them. The storage ceiling bounds both the largest file and /tmp.
 */
export function limitsWithinCeilings(limits: Limits, ceilings: ResourceCeilings = configuredCeilings()): Limits {
  return {
    ...limits,
    cpus: Math.min(limits.cpus, ceilings.cpus),
    memoryMb: Math.min(limits.memoryMb, ceilings.memoryMb),
    pids: Math.min(limits.pids, ceilings.pids),
    fileSizeMb: Math.min(limits.fileSizeMb, ceilings.storageMb),
    tmpfsMb: Math.min(limits.tmpfsMb, ceilings.storageMb),
  };
}

/** The request with its phase budgets within the ceilings, whoever built it. */
export function timeoutsWithinCeilings<R extends Pick<TrialRequest, 'agentTimeoutSec' | 'verifierTimeoutSec'>>(
  req: R,
  ceilings: ResourceCeilings = configuredCeilings(),
): R {
  return {
    ...req,
    agentTimeoutSec: Math.min(req.agentTimeoutSec, ceilings.agentTimeoutSec),
    verifierTimeoutSec: Math.min(req.verifierTimeoutSec, ceilings.verifierTimeoutSec),
  };
}
