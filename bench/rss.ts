// Peak resident memory of a process and its descendants, sampled from /proc (Linux): the sum of
// VmRSS over the tree at each sample, and the highest such sum seen.
import { readdirSync, readFileSync } from 'node:fs';

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return children;
}

function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export function treeRssMb(pid: number): number {
  let total = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    total += rssMb(next);
    pending.push(...childrenOf(next));
  }
  return total;
}

export class RssSampler {
  peakMb = 0;
  #timer: NodeJS.Timeout;

  constructor(
    readonly pid: number,
    intervalMs = 250,
  ) {
    this.#timer = setInterval(() => (this.peakMb = Math.max(this.peakMb, treeRssMb(pid))), intervalMs);
    this.#timer.unref();
  }

  stop(): number {
    clearInterval(this.#timer);
    this.peakMb = Math.max(this.peakMb, treeRssMb(this.pid));
    return Math.round(this.peakMb);
  }
}
