// Resource limits of a trial container and their Docker HostConfig form.
import type { HostConfig } from 'dockerode';
import type { Limits } from './types.ts';

export const DEFAULT_LIMITS: Limits = {
  cpus: 1,
  memoryMb: 1024,
  pids: 256,
  tmpfsMb: 256,
  fileSizeMb: 512,
  nofile: 4096,
};

const MIB = 1024 * 1024;

// Capabilities a task's own setup or tests plausibly need (file ownership,
// switching users, signalling its processes); every other one is dropped.
const KEPT_CAPABILITIES = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID', 'NET_BIND_SERVICE'];

export function resolveLimits(overrides: Partial<Limits> = {}): Limits {
  const limits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(overrides) as Array<[keyof Limits, number | undefined]>) {
    if (value !== undefined) limits[key] = value;
  }
  return limits;
}

export function hostConfigFor(limits: Limits): HostConfig {
  return {
    NetworkMode: 'none',
    NanoCpus: Math.round(limits.cpus * 1e9),
    Memory: limits.memoryMb * MIB,
    MemorySwap: limits.memoryMb * MIB,
    PidsLimit: limits.pids,
    Ulimits: [
      { Name: 'nofile', Soft: limits.nofile, Hard: limits.nofile },
      { Name: 'fsize', Soft: limits.fileSizeMb * MIB, Hard: limits.fileSizeMb * MIB },
    ],
    // overlay2 on ext4 refuses --storage-opt size=, so disk use is bounded by
    // a capped tmpfs for scratch and RLIMIT_FSIZE per file.
    Tmpfs: { '/tmp': `rw,nosuid,nodev,size=${limits.tmpfsMb}m,mode=1777` },
    CapDrop: ['ALL'],
    CapAdd: KEPT_CAPABILITIES,
    SecurityOpt: ['no-new-privileges'],
    Init: false,
  };
}
