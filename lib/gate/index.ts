// Gates: the release rule a lineage's probe groups are judged by, which policies may gate, the
// probe groups themselves and the seed funnel that decides which imported seeds are hard enough.
// The public API of lib/gate: other modules import it from here, never from its files (README, Layers).
export {
  isSimulated,
  lineageGate,
  SIMULATED_POLICY,
  type GateDecision,
  olderVersionReason,
  type LineageGate,
  gateDecision,
  judgeGroup,
  type GateVerdict,
  passes,
  type GateRule,
  type GroupCounts,
} from './gate.ts';
export {
  GATING_PURPOSES,
  newestPolicyVersion,
  ProbeGroupState,
  newestPolicyVersionSeen,
  finishGroup,
  latestGatingGroup,
  recountGroup,
  type GroupPurpose,
  groupPolicyVersion,
} from './groups.ts';
export { type Funnel, DEFAULT_SEED_FILTER, seedFunnel, passRateLimit, removedBy, type FunnelDecision, seedFilterThresholdsSchema } from './funnel.ts';
export { gatePolicyRefusal, TRAINER_POLICY, isRunnablePolicy } from './gate-policy.ts';
export { seedFunnelVerdict, latestSeedFilterRun, loadFunnelCandidates, runSeedFilter } from './seed-filter.ts';
export { type SeedFunnelVerdict, type SeedFunnelVerdictKind } from './seed-funnel-gate.ts';
export { POLICY_NAMES, type PolicyName } from './policy-names.ts';
