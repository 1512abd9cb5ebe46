// Integration: a process that runs sandboxes leaves no container behind, whether it stops on a
// signal (it drains its pool) or is killed (the reaper removes what it owned, and only that).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import Docker from 'dockerode';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBaseImage } from '../../lib/sandbox/index.ts';
import { OWNER_LABEL } from '../../lib/sandbox/owner.ts';
import { reapContainers } from '../../lib/sandbox/reaper.ts';

const docker = new Docker();
let imageId = '';

interface Child {
  process: ChildProcess;
  owner: string;
  ready: number;
}

async function startChild(): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/sandbox/pool-owner-child.ts', imageId], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let stdout = '';
  for await (const chunk of child.stdout!) {
    stdout += (chunk as Buffer).toString();
    if (stdout.includes('\n')) break;
  }
  if (!stdout.includes('\n')) throw new Error(`the child exited before it was ready: ${stderr}`);
  const { owner, ready } = JSON.parse(stdout.split('\n')[0]!) as { owner: string; ready: number };
  return { process: child, owner, ready };
}

const ownedBy = (owner: string) => docker.listContainers({ all: true, filters: { label: [`${OWNER_LABEL}=${owner}`] } });

beforeAll(async () => {
  imageId = (await ensureBaseImage({ progress: () => {} })).imageId;
});

describe('sandbox container lifecycle', () => {
  it('a process stopped by SIGTERM removes its warm pool and its in-flight container', async () => {
    const child = await startChild();
    expect(child.ready).toBe(2);
    expect(await ownedBy(child.owner)).toHaveLength(3); // two ready, one in flight
    // Its owner is alive: the reaper leaves them all.
    const reaped = await reapContainers(docker);
    expect(reaped.filter((r) => r.labels[OWNER_LABEL] === child.owner)).toEqual([]);
    child.process.kill('SIGTERM');
    const [code] = await once(child.process, 'exit');
    expect(code).toBe(0);
    expect(await ownedBy(child.owner)).toHaveLength(0);
  });

  it('what a SIGKILLed process leaves, the reaper removes at once as owner-gone', async () => {
    const child = await startChild();
    child.process.kill('SIGKILL');
    await once(child.process, 'exit');
    const left = await ownedBy(child.owner);
    expect(left).toHaveLength(3);
    // Another test file's warm pool or worker, starting meanwhile, removes a dead owner's containers
    // by the same owner-gone rule (CI saw it take one): this reaper takes the rest, and none is left.
    const reaped = (await reapContainers(docker)).filter((r) => r.labels[OWNER_LABEL] === child.owner);
    expect(reaped.length).toBeLessThanOrEqual(3);
    expect(reaped.every((r) => r.reason === 'owner-gone')).toBe(true);
    // A container the other sweep is still removing answered this reaper 409 and may be listed a moment
    // longer (CI saw one): wait on the engine's own "removed" condition for whatever is still listed.
    await Promise.all((await ownedBy(child.owner)).map((c) => untilRemoved(c.Id)));
    expect(await ownedBy(child.owner)).toHaveLength(0);
  });
});

async function untilRemoved(id: string): Promise<void> {
  try {
    await docker.getContainer(id).wait({ condition: 'removed' });
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode !== 404) throw err; // 404: gone before the wait began
  }
}
