// Integration: real containers on the local engine, from the offline base image.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainAllWarmPools } from '../../lib/sandbox/warm-pool.ts';
import { DockerSandbox, ensureBaseImage, type TrialRequest } from '../../lib/sandbox/index.ts';
import { bundle, helloTask } from './fixtures.ts';

const sandbox = new DockerSandbox();
const images = new Map<string, string>();

async function imageFor(task: TrialRequest['bundle']): Promise<string> {
  const key = task.files
    .filter((f) => f.path.startsWith('environment/'))
    .map((f) => f.content.toString())
    .join();
  if (!images.has(key)) images.set(key, (await sandbox.buildEnvironmentImage(task)).imageId);
  return images.get(key)!;
}

async function trial(task: TrialRequest['bundle'], agent: TrialRequest['agent'], extra: Partial<TrialRequest> = {}) {
  return sandbox.runTrial({
    bundle: task,
    imageId: await imageFor(task),
    agent,
    agentTimeoutSec: 30,
    verifierTimeoutSec: 30,
    labels: { 'envolve.job': 'test-sandbox' },
    ...extra,
  });
}

// A test worker exits without beforeExit: its warm pools are removed here.
afterAll(() => drainAllWarmPools());

beforeAll(async () => {
  await ensureBaseImage({ progress: () => {} });
});

describe('scoring', () => {
  it('oracle scores 1 and nop scores 0 on a good task; the agent runs as the image user in WORKDIR', async () => {
    const oracle = await trial(helloTask(), { kind: 'oracle' });
    expect(oracle.status).toBe('completed');
    expect(oracle.reward).toBe(1);
    expect(oracle.agent.log).toContain('solver runs as agent in /app');
    expect(oracle.imageId).toMatch(/^sha256:/);
    const nop = await trial(helloTask(), { kind: 'nop' });
    expect(nop.status).toBe('completed');
    expect(nop.reward).toBe(0);
  });

  it('a task whose tests pass on an empty solution lets nop score 1 (for the validator to catch)', async () => {
    const lenient = helloTask({ 'tests/test.sh': '#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n' });
    const nop = await trial(lenient, { kind: 'nop' });
    expect(nop.reward).toBe(1);
  });

  it('a wrong solution makes the oracle score 0', async () => {
    const wrong = helloTask({ 'solution/solve.sh': '#!/bin/bash\necho goodbye > /app/out.txt\n' });
    const oracle = await trial(wrong, { kind: 'oracle' });
    expect(oracle.status).toBe('completed');
    expect(oracle.reward).toBe(0);
  });

  it('reads reward.json as a map, its reward key as the scalar, and ctrf.json', async () => {
    const task = helloTask({
      'tests/test.sh':
        '#!/bin/bash\necho \'{"reward": 0.5, "style": 1}\' > /logs/verifier/reward.json\n' +
        'echo \'{"results":{"tests":[{"name":"t1","status":"passed"}]}}\' > /logs/verifier/ctrf.json\n',
    });
    const res = await trial(task, { kind: 'nop' });
    expect(res.status).toBe('completed');
    expect(res.reward).toBe(0.5);
    expect(res.rewardDetail).toEqual({ reward: 0.5, style: 1 });
    expect(res.ctrf).toEqual({ results: { tests: [{ name: 't1', status: 'passed' }] } });
  });

  it("a missing or empty reward file is 'reward-missing', not 0", async () => {
    const none = await trial(helloTask({ 'tests/test.sh': '#!/bin/bash\necho checked\nexit 0\n' }), { kind: 'nop' });
    expect(none.status).toBe('reward-missing');
    expect(none.reward).toBeNull();
    expect(none.verifier?.log).toContain('checked');
    const empty = await trial(helloTask({ 'tests/test.sh': '#!/bin/bash\n: > /logs/verifier/reward.txt\n' }), { kind: 'nop' });
    expect(empty.status).toBe('reward-missing');
    expect(empty.error).toContain('empty');
  });
});

describe('budgets', () => {
  it('an agent timeout is scored with timeoutReward and marked timedOut', async () => {
    const res = await trial(helloTask(), { kind: 'script', script: 'echo started; sleep 60' }, { agentTimeoutSec: 2, timeoutReward: 0.25 });
    expect(res.status).toBe('timed-out');
    expect(res.timedOut).toBe(true);
    expect(res.timedOutPhase).toBe('agent');
    expect(res.reward).toBe(0.25);
    expect(res.agent.log).toContain('started');
    expect(res.verifier).toBeNull();
  });

  it('a verifier timeout is scored the same way', async () => {
    const slow = helloTask({ 'tests/test.sh': '#!/bin/bash\nsleep 60\necho 1 > /logs/verifier/reward.txt\n' });
    const res = await trial(slow, { kind: 'oracle' }, { verifierTimeoutSec: 2 });
    expect(res.status).toBe('timed-out');
    expect(res.timedOutPhase).toBe('verifier');
    expect(res.reward).toBe(0);
  });
});

describe('image builds', () => {
  it('a FROM image missing on this machine fails clearly; mapped to the local base it builds', async () => {
    const pinned = 'debian:bookworm-slim@sha256:' + 'ab'.repeat(32); // not a toolchain image: maps to the plain base
    const task = helloTask({ 'environment/Dockerfile': `FROM ${pinned} AS build\nRUN echo built > /built.txt\nFROM build\nWORKDIR /app\n` });
    await expect(sandbox.buildEnvironmentImage(task)).rejects.toThrow(
      `base image '${pinned}' is not available on this machine (no registry access); map it to a local image with --base-image '${pinned}=<local image>', or build it on envolve/base:bookworm with --map-base-image`,
    );
    const mapped = await sandbox.buildEnvironmentImage(task, { baseImages: { images: {}, unmatchedToBase: true } });
    expect(mapped.mapped.map((m) => [m.from, m.to])).toEqual([[pinned, 'envolve/base:bookworm']]);
    expect(mapped.imageId).toMatch(/^sha256:/);
  });

  it('an unchanged environment is cached; a changed one builds a new image', async () => {
    const task = helloTask({ 'environment/Dockerfile': 'FROM envolve/base:bookworm\nRUN echo cache-test > /marker\n' });
    const first = await sandbox.buildEnvironmentImage(task);
    const second = await sandbox.buildEnvironmentImage(task);
    expect(second.cached).toBe(true);
    expect(second.imageId).toBe(first.imageId);
    expect(second.tag).toBe(first.tag);
    const changed = bundle('changed', { 'environment/Dockerfile': 'FROM envolve/base:bookworm\nRUN echo cache-test-2 > /marker\n' });
    const third = await sandbox.buildEnvironmentImage(changed);
    expect(third.tag).not.toBe(first.tag);
  });

  it('a failing build reports the tail of its log', async () => {
    const broken = bundle('broken', { 'environment/Dockerfile': 'FROM envolve/base:bookworm\nRUN echo about-to-fail && exit 3\n' });
    await expect(sandbox.buildEnvironmentImage(broken)).rejects.toThrow(/about-to-fail/);
  });
});

describe('reaper', () => {
  it('removes expired envolve containers and leaves unexpired ones', async () => {
    const { imageId } = await ensureBaseImage({ progress: () => {} });
    const nowSec = Math.floor(Date.now() / 1000);
    const make = (expires: number) =>
      sandbox.docker.createContainer({
        Image: imageId,
        Cmd: ['sleep', 'infinity'],
        HostConfig: { NetworkMode: 'none' },
        Labels: { 'envolve.managed': '1', 'envolve.expires': String(expires), 'envolve.job': 'test-reaper' },
      });
    const expired = await make(nowSec - 10);
    const alive = await make(nowSec + 3600);
    try {
      const reaped = await sandbox.reapContainers();
      const ids = reaped.map((r) => r.id);
      expect(ids).toContain(expired.id);
      expect(ids).not.toContain(alive.id);
      await expect(expired.inspect()).rejects.toMatchObject({ statusCode: 404 });
      await expect(alive.inspect()).resolves.toBeTruthy();
    } finally {
      await alive.remove({ force: true });
      await expired.remove({ force: true }).catch(() => undefined);
    }
  });
});
