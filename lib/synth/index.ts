// Chooses the synthesiser a lineage runs with. Claude also estimates reference priors for
// names the shipped table lacks; the procedural synthesiser works offline and estimates nothing,
// and with a sandbox it can lengthen imported seeds by running their oracle.
import type { PriorEstimator } from '../difficulty/index.ts';
import { settings, type Settings } from '../config/settings.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { AnthropicPriorEstimator, AnthropicSynthesiser } from './anthropic/index.ts';
import { ProceduralSynthesiser, SandboxArtifactSource } from './procedural/index.ts';
import type { Synthesiser } from './types.ts';

export interface Synthesis {
  synthesiser: Synthesiser;
  priorEstimator?: PriorEstimator;
}

export interface SynthesisDeps {
  sandbox?: Sandbox;
  fromSettings?: Settings;
}

export function createSynthesis(name: 'procedural' | 'anthropic', { sandbox, fromSettings = settings() }: SynthesisDeps = {}): Synthesis {
  if (name === 'procedural') return { synthesiser: new ProceduralSynthesiser(sandbox ? { artifactSource: new SandboxArtifactSource(sandbox) } : {}) };
  return { synthesiser: new AnthropicSynthesiser({}, fromSettings.anthropic), priorEstimator: new AnthropicPriorEstimator({}, fromSettings.anthropic) };
}
