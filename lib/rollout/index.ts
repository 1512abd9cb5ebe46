// Rollouts: policies acting in a sandbox, recorded as trajectories (ATIF), profiles and determinism checks.
// The public API of lib/rollout: other modules import it from here, never from its files (README, Layers).
export { type Policy } from './types.ts';
export { createPolicy, parsePolicyName, type PolicySpec, POLICY_NAMES } from './policies/index.ts';
export { buildVersionImage, runRollout, type RolloutSummary } from './run.ts';
export { type StoredProfile, latestProfile } from './profile-store.ts';
export { type Difference } from './determinism-diff.ts';
export { checkDeterminism } from './determinism.ts';
export { DEFAULT_MAX_CONCURRENCY, DEFAULT_PROFILE_SAMPLES, profileEnvironment } from './profile.ts';
export { exportAtif, importAtif } from './atif.ts';
