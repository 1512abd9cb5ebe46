export { pairKey, REFERENCE_TABLE, REFERENCE_VERSION, SCENARIO_EPSILON, SKILL_EPSILON, type ReferenceTable } from './reference-priors.ts';
export { composeScenario, LAYOUTS, NOISES, scenarioParts, type Layout, type Noise, type ScenarioParts } from './scenario-names.ts';
export { tablePriors, tableKnows, type Prior, type PriorSource, type Priors } from './priors.ts';
export { difficulty, isKnown, type Difficulty, type PriorName, type StepDifficulty, type StepTerm } from './difficulty.ts';
export { MIN_ESTIMATE, type PriorEstimator } from './estimator.ts';
export { resolvePriors } from './resolve.ts';
export {
  isUnknownDifficulty,
  readStoredDifficulty,
  requireKnownDifficulty,
  STORED_DIFFICULTY_SELECT,
  storeDifficulty,
  storedAsUnknown,
  type KnownStoredDifficulty,
  type StoredDifficulty,
  type UnknownStoredDifficulty,
} from './store.ts';
export { isOpaqueStep, OPAQUE_PREFIX, opaqueStepIds, UNKNOWN_DIFFICULTY_LABEL } from './opaque.ts';
export { computeDifficulty } from './compute.ts';
export { DEFAULT_FIT_OPTIONS, fitPriors, type CorpusEnvironment, type FitOptions, type FitProvenance, type FittedPriors } from './fit.ts';
export { listFittedPriors, loadFittedPriors, priorsChoices, priorsTable, storeFittedPriors, type PriorsChoice } from './fitted-store.ts';
export { composeSkill, DELIVERIES, skillParts, type Delivery } from './scenario-names.ts';
export { WORKED_EXAMPLE_END, WORKED_EXAMPLE_START, workedExample } from './worked-example.ts';
