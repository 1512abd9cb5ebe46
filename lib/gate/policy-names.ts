// The policies Envolve runs itself, by name (kept apart from their constructors so that a rule
// about names imports no model client).
export const POLICY_NAMES = ['oracle', 'nop', 'simulated', 'anthropic', 'openai'] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];
