// The offline toolchain bases, for real: a task whose Dockerfile starts FROM a registry image
// pinned by digest, mapped to envolve/toolchain:<name>, builds and keeps its toolchain (its
// tests run pytest, go, cargo) with the network off in the trial.
import { beforeAll, describe, expect, it } from 'vitest';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { ensureToolchainImage } from '../../lib/sandbox/toolchain-images.ts';
import type { ToolchainName } from '../../lib/sandbox/toolchains.ts';
import { buildMs, DEFAULT_TASK_BUDGETS, limitMs, taskBudgets, trialMs } from '../budgets.ts';
import { helloTask } from './fixtures.ts';

const sandbox = new DockerSandbox();
const DIGEST = `sha256:${'1f'.repeat(32)}`;

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
});

// The tests pass only if the toolchain's commands run in the trial container.
const CASES: Array<{ name: ToolchainName; from: string; check: string }> = [
  {
    name: 'python',
    from: `python:3.12-slim@${DIGEST}`,
    check: 'printf "def test_ok():\\n    assert True\\n" > /tmp/test_ok.py && python3 -m pytest -q /tmp/test_ok.py && python3 -m pip --version',
  },
  { name: 'go', from: `golang:1.22@${DIGEST}`, check: 'HOME=/tmp go version' },
  { name: 'rust', from: `rust:1.80@${DIGEST}`, check: 'cargo --version && rustc --version' },
];

const TRIAL = { agentSec: 60, verifierSec: 120 };
// The toolchain base builds as a task with no task.toml (the default build budget), then the task on it, then one trial.
const TOOLCHAIN_TEST_MS = limitMs(buildMs(DEFAULT_TASK_BUDGETS), buildMs(taskBudgets(helloTask())), trialMs(TRIAL));

describe('offline toolchain bases', () => {
  for (const { name, from, check } of CASES) {
    it(
      `${name}: a task FROM ${from.split('@')[0]} mapped to envolve/toolchain:${name} keeps its toolchain`,
      async () => {
        const toolchain = await ensureToolchainImage(sandbox.docker, name);
        const task = helloTask({
          'environment/Dockerfile': `FROM ${from}\nRUN mkdir -p /app && chown agent:agent /app\nWORKDIR /app\nUSER agent\n`,
          'tests/test.sh': `#!/bin/bash\nif ( ${check} ) > /logs/verifier/toolchain.log 2>&1; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\ncat /logs/verifier/toolchain.log\n`,
        });
        const build = await sandbox.buildEnvironmentImage(task, { baseImages: { images: { [from]: toolchain.toolchainTag }, unmatchedToBase: false } });
        expect(build.mapped).toEqual([{ from, to: toolchain.toolchainTag, imageId: toolchain.imageId }]);
        const trial = await sandbox.runTrial({
          bundle: task,
          imageId: build.imageId,
          agent: { kind: 'nop' },
          agentTimeoutSec: TRIAL.agentSec,
          verifierTimeoutSec: TRIAL.verifierSec,
        });
        expect(trial.reward, trial.verifier?.log).toBe(1);
        expect(trial.containment.networkMode).toBe('none');
      },
      TOOLCHAIN_TEST_MS,
    );
  }
});
