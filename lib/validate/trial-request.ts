// Maps a task's declared resources and budgets (task.toml) onto a sandbox trial.
import type { TaskBundle, TaskConfig } from '../env/index.ts';
import type { AgentSpec, Limits, TrialRequest } from '../sandbox/index.ts';

// A memory-backed /tmp need not be as large as the task's whole disk allowance.
const MAX_TMPFS_MB = 1024;

export function taskLimits(config: TaskConfig): Partial<Limits> {
  const env = config.environment;
  return {
    cpus: env.cpus,
    memoryMb: env.memory_mb,
    fileSizeMb: env.storage_mb,
    tmpfsMb: Math.min(env.storage_mb, MAX_TMPFS_MB),
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
  return {
    bundle,
    imageId,
    agent,
    limits: taskLimits(config),
    agentTimeoutSec: config.agent.timeout_sec * budgetFactor,
    verifierTimeoutSec: config.verifier.timeout_sec * budgetFactor,
    labels,
  };
}
