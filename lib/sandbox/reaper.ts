// Removes trial containers whose expiry passed, or whose job lease is no longer held: what a crashed
// worker left. Every trial container carries envolve.managed=1 and envolve.expires.
import type Docker from 'dockerode';
import type { ReapedContainer, ReapOptions } from './types.ts';

export async function reapContainers(docker: Docker, opts: ReapOptions = {}): Promise<ReapedContainer[]> {
  const nowSec = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const managed = await docker.listContainers({ all: true, filters: { label: ['envolve.managed=1'] } });
  const reaped: ReapedContainer[] = [];
  for (const info of managed) {
    const expiredAt = Number(info.Labels['envolve.expires']);
    // A container without a readable expiry is not ours to judge; leave it.
    if (!Number.isFinite(expiredAt)) continue;
    const orphaned = Boolean(info.Labels['envolve.lease']) && opts.leaseHeld !== undefined && !(await opts.leaseHeld(info.Labels));
    if (expiredAt > nowSec && !orphaned) continue;
    try {
      await docker.getContainer(info.Id).remove({ force: true });
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status !== 404 && status !== 409) throw err;
      continue; // removed meanwhile, or being removed (e.g. by its own worker's finally)
    }
    reaped.push({ id: info.Id, name: (info.Names[0] ?? '').replace(/^\//, ''), expiredAt, labels: info.Labels });
  }
  return reaped;
}
