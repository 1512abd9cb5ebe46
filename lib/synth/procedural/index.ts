// The procedural (offline) synthesiser and its renderer.
export { ProceduralSynthesiser, type ProceduralOptions } from './synthesiser.ts';
export { renderEnvironment, renderEnvironmentWithSteps, proceduralBudgets, GENERATOR, type Fault, type RenderOptions } from './render.ts';
export { newSeedSequence } from './seed-sequence.ts';
export { readProceduralMetadata, type ProceduralMetadata } from './metadata.ts';
export { proposePlan } from './propose.ts';
export { reviewPlan } from './review-plan.ts';
export { SCENARIO_NAMES, SKILL_NAMES } from './catalogue.ts';
export { SandboxArtifactSource, type ArtifactSource } from './oracle-artifacts.ts';
export { chooseProbe, probesOf, type ArtifactProbe, type OracleArtifact } from './artifact-probe.ts';
export { importedSequence, ImportedEditError, IMPORTED_PREFIX } from './imported.ts';
export { readChain, renderChained } from './render-chain.ts';
export { catalogueVocabulary } from './vocabulary.ts';
