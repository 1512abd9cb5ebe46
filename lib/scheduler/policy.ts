// The policy a probe runs, from the scheduler's configuration (a policy name).
import { createPolicy, parsePolicyName, type PolicySpec } from '../rollout/policies/index.ts';
import type { Policy } from '../rollout/types.ts';
import { settings, type Settings } from '../config/settings.ts';

export function policyNamed(name: string, fromSettings: Settings = settings()): Policy {
  // Every policy can be made from its name alone; options come from the settings.
  return createPolicy({ name: parsePolicyName(name) } as PolicySpec, fromSettings);
}
