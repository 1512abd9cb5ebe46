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

const MEMORY_FILES = '/sys/fs/cgroup/memory/memory.oom_control /sys/fs/cgroup/memory.events';
const PIDS_EVENT_FILES = '/sys/fs/cgroup/pids/pids.events /sys/fs/cgroup/pids.events';
const PIDS_NOW_FILES = '/sys/fs/cgroup/pids/pids.current /sys/fs/cgroup/pids/pids.max /sys/fs/cgroup/pids.current /sys/fs/cgroup/pids.max';

const PROBE = [
  `cat ${MEMORY_FILES} 2>/dev/null`,
  'echo pids.events',
  `cat ${PIDS_EVENT_FILES} 2>/dev/null`,
  'echo pids.now',
  `cat ${PIDS_NOW_FILES} 2>/dev/null`,
  'true',
].join('; ');

// The same probe in bash builtins only (no fork), so it answers while a fork bomb holds every pid.
// It runs inside the settle and result execs, between markers, instead of an exec of its own.
const COUNTERS_BEGIN = '__envolve_counters__';
const COUNTERS_END = '__envolve_counters_end__';
const catBuiltin = (files: string) => `for f in ${files}; do [[ -r $f ]] && while IFS= read -r l || [[ -n $l ]]; do echo "$l"; done < "$f"; done`;
export const BUILTIN_PROBE = [
  `echo ${COUNTERS_BEGIN}`,
  catBuiltin(MEMORY_FILES),
  'echo pids.events',
  catBuiltin(PIDS_EVENT_FILES),
  'echo pids.now',
  catBuiltin(PIDS_NOW_FILES),
  `echo ${COUNTERS_END}`,
].join('\n');

/** The counters a BUILTIN_PROBE printed into an exec's output, if it ran to its end. */
export function countersIn(output: string): CgroupCounters | undefined {
  const begin = output.indexOf(`${COUNTERS_BEGIN}\n`);
  const end = output.indexOf(COUNTERS_END, begin);
  if (begin < 0 || end < 0) return undefined;
  return parseProbe(output.slice(begin + COUNTERS_BEGIN.length + 1, end));
}

function counter(text: string, name: string): number {
  const match = new RegExp(`^${name}\\s+(\\d+)`, 'm').exec(text);
  return match?.[1] ? Number(match[1]) : 0;
}

export function parseProbe(output: string): CgroupCounters {
  const [memory = '', rest = ''] = output.split('pids.events\n');
  const [pids = '', now = ''] = rest.split('pids.now\n');
  // pids.current then pids.max ("max" when unlimited).
  const [current, limit] = now.split('\n').map((line) => Number(line.trim()));
  const pidsAtLimit = Number.isFinite(current) && Number.isFinite(limit) && current! >= limit!;
  return { oomKills: counter(memory, 'oom_kill'), pidsMaxEvents: counter(pids, 'max'), pidsAtLimit };
}

// The exec probe reads every counter, pids in use included, in one round trip. It works only
// while the container can still start a process: after a fork bomb it cannot, and the stats API
// (pids current vs limit) has to answer; it is slow (about 1 s on cgroup v1, where the engine
// samples once a second), so it is asked only then. On a timeout only the stats are asked (an
// exec could stall).
// A probe that could not fork is itself the evidence: in a container with a pids limit (and no
// RLIMIT_NPROC), EAGAIN on fork means the limit is reached. The engine's stats, sampled once a
// second, can miss a fork bomb whose processes come and go, more so on a loaded machine.
const FORK_FAILED = /resource temporarily unavailable|cannot fork|fork: retry/i;
const PIDS_AT_LIMIT: CgroupCounters = { ...NO_COUNTERS, pidsAtLimit: true };

export async function probeCounters(container: Docker.Container, opts: { exec: boolean }): Promise<CgroupCounters> {
  if (opts.exec) {
    try {
      const probe = await execOutput(container, ['sh', '-c', PROBE]);
      if (probe.exitCode === 0) return parseProbe(probe.log);
      if (FORK_FAILED.test(probe.log)) return PIDS_AT_LIMIT;
    } catch (err) {
      if (FORK_FAILED.test(err instanceof Error ? err.message : String(err))) return PIDS_AT_LIMIT;
      // any other failure to exec: ask the engine
    }
  }
  const stats = await container.stats({ stream: false, 'one-shot': true } as { stream: false }).catch(() => undefined);
  const pids = stats?.pids_stats as { current?: number; limit?: number } | undefined;
  const pidsAtLimit = pids?.current !== undefined && pids.limit !== undefined && pids.current >= pids.limit;
  return { ...NO_COUNTERS, pidsAtLimit };
}

export function mergeCounters(a: CgroupCounters, b: CgroupCounters): CgroupCounters {
  return {
    oomKills: Math.max(a.oomKills, b.oomKills),
    pidsMaxEvents: Math.max(a.pidsMaxEvents, b.pidsMaxEvents),
    pidsAtLimit: a.pidsAtLimit || b.pidsAtLimit,
  };
}
