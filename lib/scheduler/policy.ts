// The policy a probe runs, from the scheduler's configuration (a policy name).
import { createPolicy, parsePolicyName, type PolicySpec } from '../rollout/index.ts';
import type { Policy } from '../rollout/index.ts';
import { settings, type Settings } from '../config/index.ts';

export function policyNamed(name: string, fromSettings: Settings = settings()): Policy {
  // Every policy can be made from its name alone; options come from the settings.
  return createPolicy({ name: parsePolicyName(name) } as PolicySpec, fromSettings);
}
