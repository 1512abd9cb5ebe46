// Evidence that a limit was hit. Docker's inspect reports OOMKilled only for
// the container's main process, so the cgroup's own counters are read too:
// memory.oom_control's oom_kill and pids.events' max (cgroup v1 paths as the
// container sees them, with the v2 names as fallback).
import type Docker from 'dockerode';
import { execOutput } from './exec.ts';

export interface CgroupCounters {
  oomKills: number;
  pidsMaxEvents: number;
  pidsAtLimit: boolean; // the container's process count equals its pids limit
}

export const NO_COUNTERS: CgroupCounters = { oomKills: 0, pidsMaxEvents: 0, pidsAtLimit: false };

const PROBE = [
  'cat /sys/fs/cgroup/memory/memory.oom_control /sys/fs/cgroup/memory.events 2>/dev/null',
  'echo pids.events',
  'cat /sys/fs/cgroup/pids/pids.events /sys/fs/cgroup/pids.events 2>/dev/null',
  'true',
].join('; ');

function counter(text: string, name: string): number {
  const match = new RegExp(`^${name}\\s+(\\d+)`, 'm').exec(text);
  return match?.[1] ? Number(match[1]) : 0;
}

export function parseProbe(output: string): Omit<CgroupCounters, 'pidsAtLimit'> {
  const [memory = '', pids = ''] = output.split('pids.events\n');
  return { oomKills: counter(memory, 'oom_kill'), pidsMaxEvents: counter(pids, 'max') };
}

// The exec probe works only while the container can still start a process:
// after a fork bomb it cannot, and the stats API (pids current vs limit) has
// to answer. On a timeout only the stats are asked (an exec could stall).
export async function probeCounters(container: Docker.Container, opts: { exec: boolean }): Promise<CgroupCounters> {
  const stats = await container.stats({ stream: false, 'one-shot': true } as { stream: false }).catch(() => undefined);
  const pids = stats?.pids_stats as { current?: number; limit?: number } | undefined;
  const pidsAtLimit = pids?.current !== undefined && pids.limit !== undefined && pids.current >= pids.limit;
  if (!opts.exec) return { ...NO_COUNTERS, pidsAtLimit };
  try {
    const probe = await execOutput(container, ['sh', '-c', PROBE]);
    return { ...parseProbe(probe.log), pidsAtLimit };
  } catch {
    return { ...NO_COUNTERS, pidsAtLimit };
  }
}

export function mergeCounters(a: CgroupCounters, b: CgroupCounters): CgroupCounters {
  return {
    oomKills: Math.max(a.oomKills, b.oomKills),
    pidsMaxEvents: Math.max(a.pidsMaxEvents, b.pidsMaxEvents),
    pidsAtLimit: a.pidsAtLimit || b.pidsAtLimit,
  };
}
