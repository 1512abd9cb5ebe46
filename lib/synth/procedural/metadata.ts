// Recognising bundles the procedural renderer made: task.toml's [metadata] carries the generator
// marker, the seed the data was drawn from and the sequence.
import { bundleFile, type TaskBundle } from '../../env/bundle.ts';
import { parseTaskConfig } from '../../env/task-config.ts';
import { parseSequence } from '../../sequence/index.ts';
import type { Sequence } from '../../sequence/types.ts';
import { GENERATOR } from './render.ts';

export interface ProceduralMetadata {
  seed: number;
  sequence: Sequence;
}

// Null when the bundle was not rendered by this synthesiser (an imported seed, or Claude's work).
export function readProceduralMetadata(bundle: TaskBundle): ProceduralMetadata | null {
  const toml = bundleFile(bundle, 'task.toml');
  if (!toml) return null;
  const parsed = parseTaskConfig(toml.content.toString('utf8'));
  if (!parsed.ok) return null;
  const meta = parsed.config.metadata as Record<string, unknown>;
  if (meta.generator !== GENERATOR || typeof meta.generator_seed !== 'number' || typeof meta.sequence !== 'string') return null;
  return { seed: meta.generator_seed, sequence: parseSequence(meta.sequence) };
}
