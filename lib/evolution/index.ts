export { axisPolicyFromFlag, describeAxisPolicy, SYNTHESISERS, type LineageSettings, type SynthesiserName } from './config.ts';
export type { EvolutionContext } from './context.ts';
export { evolveGeneration, evolveLineage } from './evolve.ts';
export { enqueueEvolution, enqueueRevision, EVOLVE_JOB, evolveJobPayload, REVALIDATE_JOB, revalidateJobPayload, REVISE_JOB, reviseJobPayload } from './jobs.ts';
export { reviseGeneration } from './revise.ts';
export { attentionBodySchema, BUDGET_FACTORS, revalidateHeld, takeAttentionExit, type AttentionExit } from './attention.ts';
export {
  findOrCreateLineage,
  lineageBuildMirrorsPatchSchema,
  lineageSandboxRuntimePatchSchema,
  loadLineage,
  setLineageBuildMirrors,
  setLineageSandboxRuntime,
  type LineageBuildMirrorsPatch,
} from './lineage.ts';
export {
  lineageSeedFunnel,
  lineageSeedFunnelRefusal,
  recordSeedFunnelOverride,
  SEED_FUNNEL_OVERRIDE_ACTION,
  seedFunnelOverrideOf,
  type LineageSeedFunnel,
  type SeedFunnelOverride,
} from './seed-funnel.ts';
export { lineageOfVersion, lineageSandbox, lineageSandboxRuntime, versionSandbox } from './lineage-sandbox.ts';
export { lineageReport, type GenerationReport, type LineageReport } from './report.ts';
export { readExhaustedAxes, type ExhaustedAxes } from './exhaustion.ts';
export { describeImportedSeed, parseSequenceSpec, SequenceRefused } from './describe-seed.ts';
export { versionSandboxRuntime, type VersionSandboxRuntime } from './lineage-sandbox.ts';
export { incoherentParent, supersedeIncoherent, type Superseded } from './supersede.ts';
export { lineageWork, NO_WORK, shownGenerations, shownLineageStatus, type LineageWork } from './shown-state.ts';
export { settingsOf } from './lineage.ts';
export { axisPolicySchema, DEFAULT_DIFFICULTY_MARGIN } from './config.ts';
export { GenerationNotFoundError } from './errors.ts';
export { changeGenerationState, StaleGenerationError } from './generation-writer.ts';
export { readPriorsCorpus } from './priors-corpus.ts';
export { lineagePriors, lineagePriorsPatchSchema, setLineagePriors, SHIPPED_PRIORS } from './lineage-priors.ts';
