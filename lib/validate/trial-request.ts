// Maps a task's declared resources and budgets (task.toml) onto a sandbox trial, within the
// deployment's ceilings (ENVOLVE_MAX_*): what the task asked and what the trial gets are both
// recorded on the trial's containment.
import type { ResourceCeilings } from '../config/index.ts';
import type { TaskBundle, TaskConfig } from '../bundle/index.ts';
import { configuredCeilings, useOf, type AgentSpec, type Limits, type ResourceUses, type TrialRequest } from '../sandbox/index.ts';

// A memory-backed /tmp need not be as large as the task's whole disk allowance.
const MAX_TMPFS_MB = 1024;

export interface TaskResources {
  limits: Partial<Limits>;
  agentTimeoutSec: number;
  verifierTimeoutSec: number;
  buildTimeoutSec: number;
  uses: ResourceUses; // per resource: asked, used, ceiling
}

export interface TaskResourceOptions {
  budgetFactor?: number; // multiplies the agent and verifier budgets (a retry with a larger budget)
  agentTimeoutSec?: number; // asked instead of the task's [agent] timeout_sec (a rollout's override)
  ceilings?: ResourceCeilings; // default: the deployment's ENVOLVE_MAX_* settings
}

/** What a trial of this task runs with: each resource the task asks for, clamped to its ceiling. */
export function taskResources(config: TaskConfig, options: TaskResourceOptions = {}): TaskResources {
  const ceilings = options.ceilings ?? configuredCeilings();
  const factor = options.budgetFactor ?? 1;
  const env = config.environment;
  const uses = {
    cpus: useOf(env.cpus, ceilings.cpus),
    memoryMb: useOf(env.memory_mb, ceilings.memoryMb),
    storageMb: useOf(env.storage_mb, ceilings.storageMb),
    agentTimeoutSec: useOf((options.agentTimeoutSec ?? config.agent.timeout_sec) * factor, ceilings.agentTimeoutSec),
    verifierTimeoutSec: useOf(config.verifier.timeout_sec * factor, ceilings.verifierTimeoutSec),
    buildTimeoutSec: useOf(env.build_timeout_sec, ceilings.buildTimeoutSec),
  };
  return {
    limits: {
      cpus: uses.cpus.used,
      memoryMb: uses.memoryMb.used,
      fileSizeMb: uses.storageMb.used,
      tmpfsMb: Math.min(uses.storageMb.used, MAX_TMPFS_MB),
    },
    agentTimeoutSec: uses.agentTimeoutSec.used,
    verifierTimeoutSec: uses.verifierTimeoutSec.used,
    buildTimeoutSec: uses.buildTimeoutSec.used,
    uses,
  };
}

export function trialRequest(
  bundle: TaskBundle,
  config: TaskConfig,
  imageId: string,
  agent: AgentSpec,
  labels: Record<string, string>,
  budgetFactor = 1,
): TrialRequest {
  const resources = taskResources(config, { budgetFactor });
  return {
    bundle,
    imageId,
    agent,
    limits: resources.limits,
    agentTimeoutSec: resources.agentTimeoutSec,
    verifierTimeoutSec: resources.verifierTimeoutSec,
    resources: resources.uses,
    labels,
  };
}
