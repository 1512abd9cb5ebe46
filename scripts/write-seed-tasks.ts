// Writes the procedural seed tasks into examples/tasks/ (replacing earlier renderings):
//   npx tsx scripts/write-seed-tasks.ts [examples/tasks]
// seeds.test.ts checks the committed directories equal the renderer's output byte for byte.
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { renderSeedTask, SEED_TASKS } from '../lib/synth/index.ts';

async function main(): Promise<void> {
  const root = resolve(process.argv[2] ?? 'examples/tasks');
  for (const task of SEED_TASKS) {
    const dir = join(root, task.name);
    await rm(dir, { recursive: true, force: true });
    for (const file of renderSeedTask(task).files) {
      const target = join(dir, file.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.content);
      await chmod(target, file.executable ? 0o755 : 0o644);
    }
    process.stdout.write(`wrote ${dir}\n`);
  }
}

await main();
