// The ceilings bound a trial's container whoever built the request.
import { describe, expect, it } from 'vitest';
import { settingsFrom } from '../config/settings.ts';
import { timeoutsWithinCeilings } from './ceilings.ts';
import { DEFAULT_LIMITS, hostConfigFor, resolveLimits } from './resource-limits.ts';

const ceilings = settingsFrom({ ENVOLVE_MAX_CPUS: '2', ENVOLVE_MAX_MEMORY_MB: '4096', ENVOLVE_MAX_STORAGE_MB: '600', ENVOLVE_MAX_PIDS: '300' }).sandbox
  .ceilings;

describe('resolveLimits within the ceilings', () => {
  it("clamps a caller's own limits: CPUs, memory, pids, and both the largest file and /tmp by the storage ceiling", () => {
    const limits = resolveLimits({ cpus: 64, memoryMb: 1_000_000, pids: 100_000, fileSizeMb: 50_000, tmpfsMb: 1024 }, ceilings);
    expect(limits).toEqual({ ...DEFAULT_LIMITS, cpus: 2, memoryMb: 4096, pids: 300, fileSizeMb: 600, tmpfsMb: 600 });
    const host = hostConfigFor(limits, 'runc');
    expect(host).toMatchObject({ NanoCpus: 2e9, Memory: 4096 * 1024 * 1024, PidsLimit: 300 });
  });

  it('leaves limits under the ceilings as they are', () => {
    expect(resolveLimits({ cpus: 1, memoryMb: 512 }, ceilings)).toEqual({ ...DEFAULT_LIMITS, cpus: 1, memoryMb: 512 });
  });
});

describe('timeoutsWithinCeilings', () => {
  it('bounds both phase budgets of a request', () => {
    const req = timeoutsWithinCeilings({ agentTimeoutSec: 1e308, verifierTimeoutSec: 30, imageId: 'x' }, ceilings);
    expect(req).toEqual({ agentTimeoutSec: ceilings.agentTimeoutSec, verifierTimeoutSec: 30, imageId: 'x' });
  });
});
