// Chooses the synthesiser a lineage runs with. Claude also estimates reference priors for
// names the shipped table lacks; the procedural synthesiser works offline and estimates nothing,
// and with a sandbox it can lengthen imported seeds by running their oracle.
import type { PriorEstimator } from '../difficulty/index.ts';
import { settings, type Settings } from '../config/index.ts';
import type { Sandbox } from '../sandbox/index.ts';
import { resolveAnthropicConfig } from './anthropic/config.ts';
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

/**
 * Throws when the synthesiser cannot run with the deployment's settings (Claude without an API
 * key): asked before anything is written, so a refused run leaves no lineage row behind.
 */
export function checkSynthesiserSettings(name: 'procedural' | 'anthropic', fromSettings = settings()): void {
  if (name === 'anthropic') resolveAnthropicConfig({}, fromSettings.anthropic);
}

export function createSynthesis(name: 'procedural' | 'anthropic', { sandbox, fromSettings = settings() }: SynthesisDeps = {}): Synthesis {
  if (name === 'procedural') return { synthesiser: new ProceduralSynthesiser(sandbox ? { artifactSource: new SandboxArtifactSource(sandbox) } : {}) };
  return { synthesiser: new AnthropicSynthesiser({}, fromSettings.anthropic), priorEstimator: new AnthropicPriorEstimator({}, fromSettings.anthropic) };
}
export { readProceduralMetadata } from './procedural/metadata.ts';
export {
  type Plan,
  type Synthesiser,
  type ParentEnvironment,
  AxisExhausted,
  InvalidAnswer,
  ProposalRefused,
  type PlanReview,
  type PlanReviewItem,
  type RubricItemView,
  type JudgeVerdict,
} from './types.ts';
export { isImportedStep } from './procedural/imported.ts';
export { ProceduralSynthesiser, newSeedSequence, renderEnvironment, proposePlan } from './procedural/index.ts';
export { CATALOGUE_SCENARIOS, CATALOGUE_SKILLS, nearestCatalogueName } from './anthropic/catalogue-names.ts';
export { hashSeed, createRng, type Rng } from './procedural/rng.ts';
export { AnthropicConfigError, DEFAULT_MODEL, resolveAnthropicConfig, type AnthropicConfig } from './anthropic/config.ts';
export { describeFailure } from './anthropic/tool-client.ts';
export { tokenCounts } from './anthropic/usage.ts';
export { AnthropicSynthesiser, checkAnthropic, type DoctorReport } from './anthropic/index.ts';
export { misfit } from './procedural/catalogue.ts';
export { renderSeedTask, SEED_TASKS } from './procedural/seeds.ts';
export { catalogueVocabulary } from './procedural/vocabulary.ts';
export { readChain } from './procedural/render-chain.ts';
