export { pairKey, REFERENCE_TABLE, REFERENCE_VERSION, SCENARIO_EPSILON, SKILL_EPSILON, type ReferenceTable } from './reference-priors.ts';
export { composeScenario, LAYOUTS, NOISES, scenarioParts, type Layout, type Noise, type ScenarioParts } from './scenario-names.ts';
export { tablePriors, tableKnows, type Prior, type PriorSource, type Priors } from './priors.ts';
export { difficulty, type Difficulty, type PriorName, type StepDifficulty, type StepTerm } from './difficulty.ts';
export { MIN_ESTIMATE, type PriorEstimator } from './estimator.ts';
export { resolvePriors } from './resolve.ts';
export { readStoredDifficulty, STORED_DIFFICULTY_SELECT, storeDifficulty, type StoredDifficulty } from './store.ts';
export { computeDifficulty } from './compute.ts';
