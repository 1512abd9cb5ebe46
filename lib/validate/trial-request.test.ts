// A task's resources mapped onto a trial within the deployment's ceilings: clamped, and recorded
// as asked and used.
import { describe, expect, it } from 'vitest';
import { settingsFrom } from '../config/settings.ts';
import { bundleOf, validTaskFiles } from '../../test/env/task-fixtures.ts';
import { parseTaskConfig, type TaskConfig } from '../bundle/index.ts';
import { taskResources, trialRequest } from './trial-request.ts';

const ceilings = settingsFrom({
  ENVOLVE_MAX_CPUS: '4',
  ENVOLVE_MAX_MEMORY_MB: '8192',
  ENVOLVE_MAX_STORAGE_MB: '4096',
  ENVOLVE_MAX_AGENT_TIMEOUT_SEC: '3600',
  ENVOLVE_MAX_VERIFIER_TIMEOUT_SEC: '1800',
  ENVOLVE_MAX_BUILD_TIMEOUT_SEC: '900',
}).sandbox.ceilings;

function config(toml: string): TaskConfig {
  const parsed = parseTaskConfig(toml, ceilings);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
}

const GREEDY = config(
  '[agent]\ntimeout_sec = 1e9\n[verifier]\ntimeout_sec = 7200\n[environment]\ncpus = 100000\nmemory_mb = 99999999\nstorage_mb = 30000\nbuild_timeout_sec = 86400\n',
);

describe('taskResources', () => {
  it('clamps every resource over its ceiling and records the value asked beside the value used', () => {
    const resources = taskResources(GREEDY, { ceilings });
    expect(resources.limits).toEqual({ cpus: 4, memoryMb: 8192, fileSizeMb: 4096, tmpfsMb: 1024 });
    expect(resources).toMatchObject({ agentTimeoutSec: 3600, verifierTimeoutSec: 1800, buildTimeoutSec: 900 });
    expect(resources.uses).toEqual({
      cpus: { asked: 100000, used: 4, ceiling: 4 },
      memoryMb: { asked: 99999999, used: 8192, ceiling: 8192 },
      storageMb: { asked: 30000, used: 4096, ceiling: 4096 },
      agentTimeoutSec: { asked: 1e9, used: 3600, ceiling: 3600 },
      verifierTimeoutSec: { asked: 7200, used: 1800, ceiling: 1800 },
      buildTimeoutSec: { asked: 86400, used: 900, ceiling: 900 },
    });
  });

  it('leaves what fits alone, and a larger retry budget still stops at the ceiling', () => {
    const modest = config('[agent]\ntimeout_sec = 1000\n[verifier]\ntimeout_sec = 600\n[environment]\ncpus = 2\nmemory_mb = 2048\n');
    const first = taskResources(modest, { ceilings });
    expect(first.limits).toMatchObject({ cpus: 2, memoryMb: 2048 });
    expect(first.uses.agentTimeoutSec).toEqual({ asked: 1000, used: 1000, ceiling: 3600 });
    const retry = taskResources(modest, { ceilings, budgetFactor: 4 });
    expect(retry.uses.agentTimeoutSec).toEqual({ asked: 4000, used: 3600, ceiling: 3600 });
    expect(retry.uses.verifierTimeoutSec).toEqual({ asked: 2400, used: 1800, ceiling: 1800 });
  });

  it("a rollout's own agent budget is asked in place of the task's", () => {
    expect(taskResources(GREEDY, { ceilings, agentTimeoutSec: 120 }).uses.agentTimeoutSec).toEqual({ asked: 120, used: 120, ceiling: 3600 });
  });
});

describe('trialRequest', () => {
  it("carries the used values as the trial's limits and budgets, and the record for its containment", () => {
    const deployment = settingsFrom({}).sandbox.ceilings;
    const request = trialRequest(bundleOf(validTaskFiles()), GREEDY, 'sha256:x', { kind: 'nop' }, {});
    expect(request.limits).toMatchObject({ cpus: Math.min(100000, deployment.cpus), memoryMb: deployment.memoryMb });
    expect(request.agentTimeoutSec).toBe(deployment.agentTimeoutSec);
    expect(request.resources?.memoryMb).toEqual({ asked: 99999999, used: deployment.memoryMb, ceiling: deployment.memoryMb });
  });
});
