export { axisPolicyFromFlag, describeAxisPolicy, lineageSettingsSchema, SYNTHESISERS, type LineageSettings, type SynthesiserName } from './config.ts';
export type { EvolutionContext } from './context.ts';
export { evolveGeneration, evolveLineage, type EvolveLineageResult } from './evolve.ts';
export { enqueueEvolution, EVOLVE_JOB, evolveJobPayload, type EvolveJobPayload } from './jobs.ts';
export { findOrCreateLineage, loadLineage, type LoadedLineage } from './lineage.ts';
export { lineageReport, type GenerationReport, type LineageReport } from './report.ts';
