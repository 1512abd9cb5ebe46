// Which process owns a sandbox container, and whether that process still exists. Every trial and
// pooled container carries envolve.owner = host/boot/pidns/pid/start: the host name, the kernel's
// boot id, the pid namespace, the pid and the process's start time (clock ticks since boot, from
// /proc/<pid>/stat). A pid the kernel reused later has another start time, so it is not mistaken
// for the owner; a container whose owner ran on another host, kernel or pid namespace is not
// judged at all (that process cannot be seen from here), only its expiry is.
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

export const OWNER_LABEL = 'envolve.owner';
// A pooled container's pool; before envolve.owner existed its value was the owner's host:pid.
export const POOL_LABEL = 'envolve.pool';

export interface ProcessIdentity {
  host: string;
  boot: string;
  pidns: string;
  pid: number;
  start: string;
}

export type OwnerState = 'alive' | 'gone' | 'unknown';

function readOr(read: () => string, fallback: string): string {
  try {
    return read().trim();
  } catch {
    return fallback;
  }
}

// Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces, so count after its ')'.
export function processStartTime(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

let self: ProcessIdentity | undefined;
export function selfIdentity(): ProcessIdentity {
  self ??= {
    host: hostname(),
    boot: readOr(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'), 'unknown'),
    pidns: readOr(() => readlinkSync('/proc/self/ns/pid').replace(/\D/g, ''), 'unknown'),
    pid: process.pid,
    start: processStartTime(process.pid) ?? 'unknown',
  };
  return self;
}

export function ownerLabel(id: ProcessIdentity = selfIdentity()): string {
  return [id.host, id.boot, id.pidns, id.pid, id.start].join('/');
}

export function parseOwnerLabel(label: string): ProcessIdentity | undefined {
  const parts = label.split('/');
  if (parts.length !== 5) return undefined;
  const [host, boot, pidns, pid, start] = parts as [string, string, string, string, string];
  if (!/^\d+$/.test(pid)) return undefined;
  return { host, boot, pidns, pid: Number(pid), start };
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process that owns a container (by its labels) still runs, seen from this process. */
export function ownerState(labels: Record<string, string>, here: ProcessIdentity = selfIdentity()): OwnerState {
  const label = labels[OWNER_LABEL];
  if (label !== undefined) {
    const owner = parseOwnerLabel(label);
    if (!owner || owner.host !== here.host || owner.boot !== here.boot || owner.pidns !== here.pidns || owner.start === 'unknown') return 'unknown';
    const start = processStartTime(owner.pid);
    if (start === undefined) return pidExists(owner.pid) ? 'unknown' : 'gone';
    return start === owner.start ? 'alive' : 'gone';
  }
  const [host, pid] = (labels[POOL_LABEL] ?? '').split(':');
  if (host !== here.host || !pid || !/^\d+$/.test(pid)) return 'unknown';
  return pidExists(Number(pid)) ? 'alive' : 'gone';
}
