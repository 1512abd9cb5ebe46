// Resource limits of a trial container and their Docker HostConfig form.
import type { HostConfig } from 'dockerode';
import type { ResourceCeilings } from '../config/index.ts';
import { configuredCeilings, limitsWithinCeilings } from './ceilings.ts';
import type { SandboxRuntime } from './runtime.ts';
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

// The container's capabilities: what the verifier (root) and Envolve's own execs (setup, settle,
// result reads) have. File ownership and permissions (CHOWN, DAC_OVERRIDE, FOWNER, FSETID),
// switching users (SETUID, SETGID), signalling processes (KILL), ports below 1024 on lo
// (NET_BIND_SERVICE) and SETPCAP, which only serves to drop the agent phase's capabilities
// (agentPhaseCommand). Every other capability is dropped; the engine's default seccomp profile
// applies (no SecurityOpt turns it off), /proc/sys is read-only and mounts need CAP_SYS_ADMIN.
export const VERIFIER_CAPABILITIES = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID', 'NET_BIND_SERVICE', 'SETPCAP'];

// An agent running as root keeps only these: it may own, read and write any file, switch users
// and signal its own processes. A non-root agent has no capability at all, and no-new-privileges
// means no setuid binary or file capability can give it one.
export const AGENT_CAPABILITIES = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'KILL', 'SETGID', 'SETUID'];

const isRootUser = (user: string) => /^(root|0)(:|$)/.test(user);

/** The agent phase's command: as root, its capability bounding set cut to AGENT_CAPABILITIES first. */
export function agentPhaseCommand(cmd: string[], user: string): string[] {
  if (!isRootUser(user)) return cmd;
  const keep = AGENT_CAPABILITIES.map((cap) => `+${cap.toLowerCase()}`).join(',');
  return ['setpriv', `--bounding-set=-all,${keep}`, '--', ...cmd];
}

/** The defaults with the overrides given, within the deployment's ceilings whoever asked. */
export function resolveLimits(overrides: Partial<Limits> = {}, ceilings: ResourceCeilings = configuredCeilings()): Limits {
  const limits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(overrides) as Array<[keyof Limits, number | undefined]>) {
    if (value !== undefined) limits[key] = value;
  }
  return limitsWithinCeilings(limits, ceilings);
}

// Under gVisor the host's pids cgroup counts the sandbox kernel's own threads, not the task's
// processes (those are the sandbox kernel's tasks, bounded by the memory limit): a task-sized
// limit there kills the sandbox itself, so runsc gets at least this many.
const RUNSC_MIN_HOST_PIDS = 1024;

export function hostConfigFor(limits: Limits, runtime: SandboxRuntime): HostConfig {
  return {
    Runtime: runtime,
    NetworkMode: 'none',
    NanoCpus: Math.round(limits.cpus * 1e9),
    Memory: limits.memoryMb * MIB,
    MemorySwap: limits.memoryMb * MIB,
    PidsLimit: runtime === 'runsc' ? Math.max(limits.pids, RUNSC_MIN_HOST_PIDS) : limits.pids,
    Ulimits: [
      { Name: 'nofile', Soft: limits.nofile, Hard: limits.nofile },
      { Name: 'fsize', Soft: limits.fileSizeMb * MIB, Hard: limits.fileSizeMb * MIB },
    ],
    // overlay2 on ext4 refuses --storage-opt size=, so disk use is bounded by
    // a capped tmpfs for scratch and RLIMIT_FSIZE per file.
    Tmpfs: { '/tmp': `rw,nosuid,nodev,size=${limits.tmpfsMb}m,mode=1777` },
    CapDrop: ['ALL'],
    CapAdd: VERIFIER_CAPABILITIES,
    SecurityOpt: ['no-new-privileges'],
    Init: false,
  };
}
