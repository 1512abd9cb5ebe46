// Integration: a pool of two Docker "hosts" (proxies in front of the local engine); one goes away mid-trial.
import { afterAll, beforeAll, expect, it } from 'vitest';
import Docker from 'dockerode';
import { DockerHostPool, ensureBaseImage, parseDockerHost } from '../../lib/sandbox/index.ts';
import { helloTask } from '../sandbox/fixtures.ts';
import { dockerSocketProxy, type SocketProxy } from './socket-proxy.ts';
import { limitMs, trialMs } from '../budgets.ts';
import { waitFor } from '../fixtures/wait-for.ts';

const JOB_LABEL = 'test-host-pool';
let hostA: SocketProxy;
let hostB: SocketProxy;
const log: string[] = [];
const AGENT_SLEEP = 'sleep 4';

/** Whether the agent's script is running in the trial's container (seen through the local engine, behind both hosts). */
async function agentRunning(docker: Docker): Promise<boolean> {
  for (const info of await docker.listContainers({ filters: { label: [`envolve.job=${JOB_LABEL}`] } })) {
    const top = await docker
      .getContainer(info.Id)
      .top()
      .catch(() => ({ Processes: [] as string[][] }));
    if (top.Processes.some((row: string[]) => row.join(' ').includes(AGENT_SLEEP))) return true;
  }
  return false;
}

beforeAll(async () => {
  await ensureBaseImage({ progress: () => {} });
  hostA = await dockerSocketProxy();
  hostB = await dockerSocketProxy();
});
afterAll(async () => {
  await hostA?.close();
  await hostB?.close();
  // The trial cut off on host A could not remove its container through the closed socket.
  const docker = new Docker();
  for (const info of await docker.listContainers({ all: true, filters: { label: [`envolve.job=${JOB_LABEL}`] } })) {
    await docker
      .getContainer(info.Id)
      .remove({ force: true })
      .catch((err: { statusCode?: number }) => {
        // 404 gone, 409 being removed already (by the trial's own background clean-up).
        if (err.statusCode !== 404 && err.statusCode !== 409) throw err;
      });
  }
});

it('moves a trial to another host when its host goes away mid-run, drains that host, and takes it back once it answers', async () => {
  const pool = new DockerHostPool([parseDockerHost(`${hostA.url}#1`), parseDockerHost(`${hostB.url}#1`)], (m) => log.push(m));
  const task = helloTask();
  const { imageId } = await pool.buildEnvironmentImage(task);
  const budgets = { agentSec: 60, verifierSec: 60 };
  const started = pool.runTrial({
    bundle: task,
    imageId,
    // Slow enough that host A is closed while the agent runs there.
    agent: { kind: 'script', script: `${AGENT_SLEEP}\necho hello > /app/out.txt\n` },
    agentTimeoutSec: budgets.agentSec,
    verifierTimeoutSec: budgets.verifierSec,
    labels: { 'envolve.job': JOB_LABEL },
  });
  // Host A goes away once the agent runs there; the trial reaches its agent well within the trial's own budgets.
  await waitFor(() => agentRunning(new Docker()), limitMs(trialMs(budgets)));
  expect(pool.hosts.map((host) => host.active)).toEqual([1, 0]); // placed on A (both free, A first)
  await hostA.close();
  const trial = await started;

  expect(trial).toMatchObject({ status: 'completed', reward: 1 });
  expect(pool.hosts[0]?.healthy).toBe(false);
  expect(log.join('\n')).toContain(`docker host ${hostA.url} was lost mid-work; moving the work to another host`);

  await hostA.reopen();
  await pool.checkHealth();
  expect(pool.hosts.map((host) => host.healthy)).toEqual([true, true]);
});
