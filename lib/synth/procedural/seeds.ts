// The procedural seed tasks shipped in examples/tasks/, rendered with their envolve.json sidecar
// so `envolve env import` stores them with their sequence and evolution can start offline.
import type { TaskBundle } from '../../bundle/index.ts';
import { contentHash, METADATA_SIDECAR, comparePaths, renderSidecar } from '../../env/index.ts';
import type { Sequence } from '../../sequence/index.ts';
import { renderEnvironment } from './render.ts';

export interface SeedTask {
  name: string;
  seed: number;
  sequence: Sequence;
}

export const SEED_TASKS: readonly SeedTask[] = [
  {
    name: 'seed-logs-awk',
    seed: 101,
    sequence: {
      steps: [
        { id: 's1', scenario: 'web-access-log', skill: 'sort-uniq-count', dependsOn: [] },
        { id: 's2', scenario: 'auth-syslog', skill: 'awk-fields', dependsOn: ['s1'] },
      ],
    },
  },
  {
    name: 'seed-ledger-sql',
    seed: 202,
    sequence: {
      steps: [
        { id: 's1', scenario: 'payments-ledger', skill: 'sqlite-sql', dependsOn: [] },
        { id: 's2', scenario: 'inventory-csv', skill: 'bc-arithmetic', dependsOn: ['s1'] },
      ],
    },
  },
  { name: 'seed-telemetry-jq', seed: 303, sequence: { steps: [{ id: 's1', scenario: 'sensor-telemetry', skill: 'jq-query', dependsOn: [] }] } },
];

export function renderSeedTask(task: SeedTask): TaskBundle {
  const bundle = renderEnvironment(task.sequence, { seed: task.seed, name: task.name });
  const sidecar = renderSidecar({
    versionId: contentHash(bundle),
    name: task.name,
    source: 'procedural',
    metadata: { kind: 'seed', generation: 0, parents: [], sequence: task.sequence, procedural: { seed: task.seed } },
  });
  const files = [...bundle.files, { path: METADATA_SIDECAR, content: Buffer.from(sidecar), executable: false }];
  return { name: task.name, files: files.sort((a, b) => comparePaths(a.path, b.path)) };
}
