// Shared set-up of the evolution tests: a migrated database, the Docker sandbox, and
// procedural seeds stored the way `envolve env import` stores a shipped seed.
import type { Db } from '../../lib/db/client.ts';
import { storeBundle } from '../../lib/env/store.ts';
import type { EvolutionContext } from '../../lib/evolution/index.ts';
import { newSeedSequence, renderEnvironment } from '../../lib/synth/procedural/index.ts';
import type { Sandbox } from '../../lib/sandbox/index.ts';
import type { Synthesiser } from '../../lib/synth/types.ts';

export async function storeProceduralSeed(db: Db, seed: number, name: string, steps = 2): Promise<string> {
  const sequence = newSeedSequence(seed, { steps });
  const bundle = renderEnvironment(sequence, { seed, name });
  return storeBundle(db, bundle, { source: 'import', metadata: { kind: 'seed', generation: 0, parents: [], sequence } });
}

export function context(db: Db, sandbox: Sandbox, synthesiser: Synthesiser, log: string[] = []): EvolutionContext {
  return { db, sandbox, synthesiser, progress: (m) => log.push(m) };
}
