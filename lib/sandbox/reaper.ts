// Removes trial containers a worker left behind: those whose expiry passed, whose job lease is no
// longer held, or whose owning process no longer exists (owner.ts). Every trial container carries
// envolve.managed=1, envolve.expires and envolve.owner. A container whose owner is alive, or
// cannot be judged from here, is left alone until its expiry: other processes share the engine.
import type Docker from 'dockerode';
import { ownerState } from './owner.ts';
import type { ReapedContainer, ReapOptions, ReapReason } from './types.ts';

async function reasonToReap(labels: Record<string, string>, nowSec: number, opts: ReapOptions): Promise<ReapReason | undefined> {
  const expiredAt = Number(labels['envolve.expires']);
  // A container without a readable expiry is not ours to judge; leave it.
  if (!Number.isFinite(expiredAt)) return undefined;
  if (expiredAt <= nowSec) return 'expired';
  if (ownerState(labels) === 'gone') return 'owner-gone';
  if (labels['envolve.lease'] && opts.leaseHeld && !(await opts.leaseHeld(labels))) return 'lease-lost';
  return undefined;
}

export async function reapContainers(docker: Docker, opts: ReapOptions = {}): Promise<ReapedContainer[]> {
  const nowSec = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const managed = await docker.listContainers({ all: true, filters: { label: ['envolve.managed=1'] } });
  const reaped: ReapedContainer[] = [];
  for (const info of managed) {
    const reason = await reasonToReap(info.Labels, nowSec, opts);
    if (!reason) continue;
    try {
      await docker.getContainer(info.Id).remove({ force: true });
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status !== 404 && status !== 409) throw err;
      continue; // removed meanwhile, or being removed (e.g. by its own worker's finally)
    }
    const name = (info.Names[0] ?? '').replace(/^\//, '');
    reaped.push({ id: info.Id, name, expiredAt: Number(info.Labels['envolve.expires']), reason, labels: info.Labels });
  }
  return reaped;
}
