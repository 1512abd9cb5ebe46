// The policy a probe runs, from the scheduler's configuration (a policy name).
import { createPolicy, parsePolicyName, type PolicySpec } from '../rollout/policies/index.ts';
import type { Policy } from '../rollout/types.ts';

export function policyNamed(name: string, env: Record<string, string | undefined> = process.env): Policy {
  // Every policy can be made from its name alone; options come from the environment.
  return createPolicy({ name: parsePolicyName(name) } as PolicySpec, env);
}
