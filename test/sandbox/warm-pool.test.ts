// Integration: the warm pool on the local engine. Pooled containers are started ahead of demand
// with the trial configuration and the reaper's labels, handed out once, and removed on drain.
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { hostConfigFor, resolveLimits } from '../../lib/sandbox/resource-limits.ts';
import { WarmPool, warmPoolFor } from '../../lib/sandbox/warm-pool.ts';
import { helloTask } from './fixtures.ts';

let imageId = '';
const docker = new Docker();
const pool = new WarmPool(docker, 2);

const options = (): Docker.ContainerCreateOptions => ({
  Image: imageId,
  Entrypoint: ['sleep'],
  Cmd: ['infinity'],
  User: '0',
  NetworkDisabled: true,
  Labels: { 'envolve.managed': '1', 'envolve.task': 'warm-pool-test' },
  HostConfig: hostConfigFor(resolveLimits(), 'runc'),
});

const ownedBy = async (poolId: string) => docker.listContainers({ all: true, filters: { label: [`envolve.pool=${poolId}`] } });

beforeAll(async () => {
  await ensureBaseImage({ progress: () => {} });
  imageId = (await new DockerSandbox(docker).buildEnvironmentImage(helloTask())).imageId;
});

afterAll(async () => {
  await pool.drain();
});

describe('warm pool', () => {
  it('fills once demand exceeds its size, with started, hardened, labelled containers, and hands each out once', async () => {
    // A one-off validation (two trials) of a new image earns no pool.
    const oneOff = await Promise.all([1, 2].map(() => pool.take({ options: options(), labels: { 'envolve.job': 'j1' }, budgetSec: 120 })));
    expect(oneOff.map((t) => t.warm)).toEqual([false, false]);
    const firstInfo = await oneOff[0]!.container.inspect();
    expect(firstInfo.Config.Labels['envolve.job']).toBe('j1'); // a fresh container carries the trial's labels
    for (const t of oneOff) pool.retire(t.container);
    await pool.whenFilled();
    expect(await ownedBy(pool.id)).toHaveLength(0);

    const third = await pool.take({ options: options(), labels: {}, budgetSec: 120 });
    expect(third.warm).toBe(false);
    pool.retire(third.container);

    await pool.whenFilled();
    const ready = await ownedBy(pool.id);
    expect(ready).toHaveLength(2);
    for (const info of ready) {
      expect(info.State).toBe('running');
      expect(info.Labels['envolve.managed']).toBe('1');
      expect(Number(info.Labels['envolve.expires'])).toBeGreaterThan(Date.now() / 1000 + 1800);
      expect(info.HostConfig.NetworkMode).toBe('none');
    }

    const taken = await Promise.all([1, 2].map(() => pool.take({ options: options(), labels: {}, budgetSec: 120 })));
    expect(taken.map((t) => t.warm)).toEqual([true, true]);
    expect(new Set(taken.map((t) => t.container.id)).size).toBe(2);
    expect(ready.map((r) => r.Id).sort()).toEqual(taken.map((t) => t.container.id).sort());
    const inspected = await taken[0]!.container.inspect();
    expect(inspected.HostConfig.Memory).toBe(1024 * 1024 * 1024);
    expect(inspected.HostConfig.PidsLimit).toBe(256);
    for (const t of taken) pool.retire(t.container);

    // The pool refills behind what it handed out; nothing handed out comes back.
    await pool.whenFilled();
    const refilled = (await ownedBy(pool.id)).filter((c) => c.State === 'running');
    expect(refilled.map((c) => c.Id)).not.toContain(taken[0]!.container.id);
  });

  it('gives a trial whose budget outlasts a pooled expiry a fresh container of its own', async () => {
    const long = await pool.take({ options: options(), labels: { 'envolve.job': 'long' }, budgetSec: 4 * 3600 });
    expect(long.warm).toBe(false);
    const info = await long.container.inspect();
    expect(Number(info.Config.Labels['envolve.expires'])).toBeGreaterThan(Date.now() / 1000 + 4 * 3600);
    pool.retire(long.container);
  });

  it('removes every pooled container on drain', async () => {
    await pool.whenFilled();
    expect((await ownedBy(pool.id)).length).toBeGreaterThan(0);
    await pool.drain();
    expect(await ownedBy(pool.id)).toHaveLength(0);
    expect((await pool.take({ options: options(), labels: {}, budgetSec: 60 }).then((t) => (pool.retire(t.container), t))).warm).toBe(false);
  });

  it('runs consecutive trials through the pool, each in a container of its own', async () => {
    const sandbox = new DockerSandbox(new Docker());
    const trialPool = warmPoolFor(sandbox.docker, 1);
    const request = { bundle: helloTask(), imageId, agent: { kind: 'oracle' as const }, agentTimeoutSec: 30, verifierTimeoutSec: 30, labels: {} };
    await sandbox.runTrial(request); // the first demand earns no pool of size 1
    const first = await sandbox.runTrial(request);
    await trialPool.whenFilled();
    const second = await sandbox.runTrial(request);
    expect([first.reward, second.reward]).toEqual([1, 1]);
    expect(first.containerId).not.toBe(second.containerId);
    expect(trialPool.stats().hits).toBe(1);
    expect(second.phaseMs?.container).toBeLessThan(first.phaseMs?.container ?? Infinity);
    await trialPool.drain();
    expect(await ownedBy(trialPool.id)).toHaveLength(0);
  });
});
