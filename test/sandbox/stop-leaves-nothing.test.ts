// Integration: a process stopped by SIGTERM in the middle of a burst of trials creates no container
// after the signal and leaves none behind: in-flight trials are interrupted and their containers
// removed before it exits. Both are read from the engine itself (its event log and its container
// list), not from what the process says about itself.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import Docker from 'dockerode';
import { beforeAll, describe, expect, it } from 'vitest';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { OWNER_LABEL } from '../../lib/sandbox/owner.ts';
import { DOCKER_REMOVAL_MS, limitMs, WORKER_START_MS } from '../budgets.ts';
import { helloTask } from './fixtures.ts';

const docker = new Docker();
let imageId = '';

beforeAll(async () => {
  await ensureBaseImage({ progress: () => {} });
  imageId = (await new DockerSandbox().buildEnvironmentImage(helloTask())).imageId;
});

// Every container the engine says was created with this owner label between two times.
async function createdBetween(owner: string, since: number, until: number): Promise<string[]> {
  const stream = (await docker.getEvents({
    since: Math.floor(since / 1000),
    until: Math.floor(until / 1000) + 1,
    filters: { type: ['container'], event: ['create'], label: [`${OWNER_LABEL}=${owner}`] },
  })) as NodeJS.ReadableStream;
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: string; timeNano: number })
    .filter((event) => event.timeNano / 1e6 >= since)
    .map((event) => event.id);
}

describe('stopping a busy process', () => {
  it(
    'creates no sandbox after SIGTERM and removes every container it made before it exits',
    async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/sandbox/busy-stop-child.ts', imageId], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const lines: string[] = [];
      let buffered = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const parts = buffered.split('\n');
        buffered = parts.pop()!;
        lines.push(...parts);
      });
      const exited = once(child, 'exit');
      while (lines.length === 0 && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lines, stderr).not.toHaveLength(0);
      const { owner } = JSON.parse(lines[0]!) as { owner?: string };
      expect(owner, `${lines[0]}\n${stderr}`).toBeDefined();
      // The burst goes on for a moment: the child keeps starting trials one after another.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const signalled = Date.now();
      child.kill('SIGTERM');
      const [code] = await exited;
      const ended = Date.now();

      expect(code, stderr).toBe(0);
      const left = await docker.listContainers({ all: true, filters: { label: [`${OWNER_LABEL}=${owner!}`] } });
      expect(
        left.map((c) => `${c.Id.slice(0, 12)} ${c.State}`),
        stderr,
      ).toEqual([]);
      // The child has at most one creation under way at any moment: one that began before the
      // signal may land after it (and is removed with the rest); a second would be a creation the
      // stop should have refused.
      expect((await createdBetween(owner!, signalled, ended)).length, stderr).toBeLessThanOrEqual(1);
      // Every trial in flight was interrupted, and none came back as a result a validator would judge.
      const { outcomes } = JSON.parse(lines[1]!) as { outcomes: string[] };
      expect(outcomes.length).toBeGreaterThanOrEqual(3);
      for (const outcome of outcomes) expect(outcome).toMatch(/^SandboxStoppingError: interrupted: the process received SIGTERM/);
    },
    // Three containers starting, then the stop: one removal round and a process exit.
    limitMs(WORKER_START_MS, DOCKER_REMOVAL_MS, DOCKER_REMOVAL_MS),
  );
});
