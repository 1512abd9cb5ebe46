// Evidence that a limit was hit. Docker's inspect reports OOMKilled only for
// the container's main process, so the cgroup's own counters are read too:
// memory.oom_control's oom_kill and pids.events' max (cgroup v1 paths as the
// container sees them, with the v2 names as fallback).
import type Docker from 'dockerode';

export interface CgroupCounters {
  oomKills: number;
  pidsMaxEvents: number;
  pidsAtLimit: boolean; // the container's process count equals its pids limit
}

export const NO_COUNTERS: CgroupCounters = { oomKills: 0, pidsMaxEvents: 0, pidsAtLimit: false };

const MEMORY_FILES = '/sys/fs/cgroup/memory/memory.oom_control /sys/fs/cgroup/memory.events';
const PIDS_EVENT_FILES = '/sys/fs/cgroup/pids/pids.events /sys/fs/cgroup/pids.events';
const PIDS_NOW_FILES = '/sys/fs/cgroup/pids/pids.current /sys/fs/cgroup/pids/pids.max /sys/fs/cgroup/pids.current /sys/fs/cgroup/pids.max';

// The probe, in bash builtins only (no fork), so it answers while a fork bomb holds every pid.
// The trial's session runs it at the settle and after the verifier (trial-script.ts).
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

// When a phase runs out of time the session cannot be asked (it is busy, or stalled): the engine's
// stats answer (pids in use against the limit; about 1 s on cgroup v1, where the engine samples
// once a second).
export async function probeCounters(container: Docker.Container): Promise<CgroupCounters> {
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
