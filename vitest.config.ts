import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BASE_IMAGE_WAIT_MS, DEFAULT_TASK_BUDGETS, limitMs, validationMs } from './test/budgets.ts';

const ALL_TESTS = ['lib/**/*.test.ts', 'app/**/*.test.ts', 'cli/**/*.test.ts', 'workers/**/*.test.ts', 'test/**/*.test.ts'];

// The integration tier: test files that start containers (a Docker engine and the base image) or a
// built web app. Everything else is the unit tier, which must pass on a machine with neither: it runs
// with DOCKER_HOST pointing at a socket that does not exist, so a file that reaches Docker and is not
// listed here fails there (in-process and in the CLIs it spawns) instead of passing only where an
// engine happens to run.
export const INTEGRATION_TESTS = [
  'lib/sandbox/image-inventory.test.ts',
  'lib/sandbox/runtime.test.ts',
  'test/calibration/**/*.test.ts',
  'test/evolution/**/*.test.ts',
  'test/missed-issues/**/*.test.ts',
  'test/rollout/**/*.test.ts',
  'test/rubric/**/*.test.ts',
  'test/sandbox/**/*.test.ts',
  'test/scale-out/**/*.test.ts',
  'test/scheduler/**/*.test.ts',
  'test/synth/**/*.test.ts',
  'test/trainer/**/*.test.ts',
  'test/validate/**/*.test.ts',
  'workers/evolve-job.test.ts',
];

export const NO_DOCKER_HOST = 'unix:///nonexistent/envolve-unit-tier-has-no-docker.sock';

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // Limits derived from the product's budgets (test/budgets.ts), never a guess at the machine's speed. A test
    // that names no limit of its own waits on at most one validation of a task with the product's default
    // budgets (a build, then the oracle and invalid-test trials); one that waits on more passes its own.
    testTimeout: limitMs(validationMs(DEFAULT_TASK_BUDGETS)),
    // A beforeAll waits on the base image: at most as long as a process waits for another's build of it.
    hookTimeout: limitMs(BASE_IMAGE_WAIT_MS),
    pool: 'forks',
    fileParallelism: true,
    // One test file per core: the files wait mostly on containers, and the engine shares the same cores.
    maxWorkers: availableParallelism(),
    projects: [
      { extends: true, test: { name: 'unit', include: ALL_TESTS, exclude: INTEGRATION_TESTS, env: { DOCKER_HOST: NO_DOCKER_HOST } } },
      { extends: true, test: { name: 'integration', include: INTEGRATION_TESTS } },
    ],
  },
});
