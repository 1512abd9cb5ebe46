// Which policies may gate a lineage. A lineage is released by the policy being trained: groups a
// trainer reports (any policy name Envolve does not run itself, `trainer` by default) or an
// endpoint policy Envolve probes with (`openai`, `anthropic`). The oracle and nop prove that a
// task is solvable and that its tests are not vacuous, which validation already did: as a gate
// they would release every approved generation, or none. The simulated policy gates only a demo.
import { POLICY_NAMES } from './policy-names.ts';

export const TRAINER_POLICY = 'trainer';

const PROOF_POLICIES: Record<string, string> = {
  oracle: 'the oracle runs the reference solution, which passes every time (validation already proved it): it would release every approved generation',
  nop: 'the nop policy does nothing and fails every time (validation already proved it): it would release nothing',
};

/** A policy Envolve runs itself (probes are queued for it); any other name is reported by a trainer. */
export function isRunnablePolicy(name: string): boolean {
  return (POLICY_NAMES as readonly string[]).includes(name);
}

/** Why `name` cannot gate a lineage (in or out of demo mode), or null when it can. */
export function gatePolicyRefusal(name: string, demoMode: boolean): string | null {
  const proof = PROOF_POLICIES[name];
  if (proof) return `${name} cannot gate a lineage: ${proof}; use ${TRAINER_POLICY} (groups your trainer reports) or an endpoint policy (openai, anthropic)`;
  if (name === 'simulated' && !demoMode) return 'simulated cannot gate a lineage outside demo mode: its scores test the pipeline, not a policy being trained';
  return null;
}
