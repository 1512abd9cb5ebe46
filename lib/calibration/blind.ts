// Blind labelling: what an annotator's browser may receive is an explicit allow-list of fields,
// applied on the server. Anything not listed — the verifier's reward and verdict, the policy
// and model that produced the trajectory, the agent's own messages and reasoning (a simulated
// agent writes "simulated mistake: …" there, and any agent's "done, all tests pass" is a claim
// to judge, not evidence) — never leaves the server, whatever a read model later adds.

export const BLIND_ITEM_FIELDS = ['id', 'setId', 'position', 'items', 'trajectory', 'myLabel'] as const;
export const BLIND_TRAJECTORY_FIELDS = ['environmentName', 'instruction', 'turns', 'artifacts'] as const;
// The turns are what the agent did: commands and what they printed.
export const BLIND_TURN_FIELDS = ['stepId', 'command', 'output', 'exitCode'] as const;
export const BLIND_ARTIFACT_FIELDS = ['path', 'size', 'text', 'omitted'] as const;
export const BLIND_LABEL_FIELDS = ['answer', 'note'] as const;

// Keys that would give the answer away or bias the annotator; asserted absent by the tests.
export const FORBIDDEN_KEYS = [
  'reward',
  'passed',
  'verdict',
  'verifierReward',
  'verifierPassed',
  'verifierLog',
  'rewardDetail',
  'ctrf',
  'stratum',
  'finalLabel',
  'labels',
  'policy',
  'policyVersion',
  'model',
  'simulated',
  'message',
  'reasoning',
  'timedOut',
  'touchedProtected',
] as const;

/** A copy of `value` with only the listed keys. */
export function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) out[key] = value[key];
  return out;
}

/** Every forbidden key anywhere in a JSON value, with its path, for the tests. */
export function forbiddenKeysIn(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => forbiddenKeysIn(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => [
    ...((FORBIDDEN_KEYS as readonly string[]).includes(key) ? [`${path}.${key}`] : []),
    ...forbiddenKeysIn(v, `${path}.${key}`),
  ]);
}
