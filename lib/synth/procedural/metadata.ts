// Recognising bundles the procedural renderer made: task.toml's [metadata] carries the generator
// marker, the seed the data was drawn from and the sequence.
import { bundleFile, type TaskBundle, parseTaskConfig } from '../../bundle/index.ts';
import { parseSequence } from '../../sequence/index.ts';
import type { Sequence } from '../../sequence/index.ts';
import { GENERATOR } from './render.ts';

export interface ProceduralMetadata {
  seed: number;
  sequence: Sequence;
  variants: Record<string, number>; // per step id, the construction variant a retry chose (absent = 0)
}

// The construction inputs, without the sequence claim: what recover.ts may read.
export function readGeneratorInputs(bundle: TaskBundle): { seed: number; variants: Record<string, number> } | null {
  const toml = bundleFile(bundle, 'task.toml');
  if (!toml) return null;
  const parsed = parseTaskConfig(toml.content.toString('utf8'));
  if (!parsed.ok) return null;
  const meta = parsed.config.metadata as Record<string, unknown>;
  if (meta.generator !== GENERATOR || typeof meta.generator_seed !== 'number') return null;
  return { seed: meta.generator_seed, variants: parseVariants(meta.generator_variants) };
}

function parseVariants(value: unknown): Record<string, number> {
  if (typeof value !== 'string') return {};
  const parsed: unknown = JSON.parse(value);
  if (typeof parsed !== 'object' || parsed === null) return {};
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => Number.isSafeInteger(e[1])));
}

// Null when the bundle was not rendered by this synthesiser (an imported seed, or Claude's work).
export function readProceduralMetadata(bundle: TaskBundle): ProceduralMetadata | null {
  const toml = bundleFile(bundle, 'task.toml');
  if (!toml) return null;
  const parsed = parseTaskConfig(toml.content.toString('utf8'));
  if (!parsed.ok) return null;
  const meta = parsed.config.metadata as Record<string, unknown>;
  if (meta.generator !== GENERATOR || typeof meta.generator_seed !== 'number' || typeof meta.sequence !== 'string') return null;
  return { seed: meta.generator_seed, sequence: parseSequence(meta.sequence), variants: parseVariants(meta.generator_variants) };
}
