// Chooses the synthesiser a lineage runs with. Claude also estimates reference priors for
// names the shipped table lacks; the procedural synthesiser works offline and estimates nothing.
import type { PriorEstimator } from '../difficulty/index.ts';
import { AnthropicPriorEstimator, AnthropicSynthesiser } from './anthropic/index.ts';
import { ProceduralSynthesiser } from './procedural/index.ts';
import type { Synthesiser } from './types.ts';

export interface Synthesis {
  synthesiser: Synthesiser;
  priorEstimator?: PriorEstimator;
}

export function createSynthesis(name: 'procedural' | 'anthropic', env: NodeJS.ProcessEnv = process.env): Synthesis {
  if (name === 'procedural') return { synthesiser: new ProceduralSynthesiser() };
  return { synthesiser: new AnthropicSynthesiser({}, env), priorEstimator: new AnthropicPriorEstimator({}, env) };
}
