import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BASE_IMAGE_WAIT_MS, DEFAULT_TASK_BUDGETS, limitMs, validationMs } from './test/budgets.ts';

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ['lib/**/*.test.ts', 'app/**/*.test.ts', 'cli/**/*.test.ts', 'workers/**/*.test.ts', 'test/**/*.test.ts'],
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
  },
});
