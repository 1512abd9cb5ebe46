import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTaskDir } from '../../env/read-task-dir.ts';
import { renderSeedTask, SEED_TASKS } from './seeds.ts';

describe('shipped procedural seeds', () => {
  for (const task of SEED_TASKS) {
    it(`examples/tasks/${task.name} is exactly what the renderer makes (regenerate with scripts/write-seed-tasks.ts)`, async () => {
      const { bundle } = await readTaskDir(join(process.cwd(), 'examples/tasks', task.name));
      const expected = renderSeedTask(task);
      expect(bundle.files.map((f) => f.path)).toEqual(expected.files.map((f) => f.path));
      for (const [i, file] of bundle.files.entries()) {
        expect(file.content.equals(expected.files[i]!.content), file.path).toBe(true);
        expect(file.executable, file.path).toBe(expected.files[i]!.executable);
      }
    });
  }
});
