// The 6/8 gate as a pure function of a finished group's counts. A group with sandbox errors
// says nothing about the environment's difficulty, so it never moves a frontier.
export interface GroupCounts {
  size: number;
  passes: number;
  completed: number; // finished rollouts, timed-out ones included
  errors: number;
}

export type GateVerdict =
  | { kind: 'incomplete'; reason: string }
  | { kind: 'pass'; saturated: boolean } // passes ≥ releaseAt: the next generation may be released
  | { kind: 'hold'; allFail: boolean };

export function judgeGroup(group: GroupCounts, releaseAt: number): GateVerdict {
  if (group.errors > 0) return { kind: 'incomplete', reason: `${group.errors} of ${group.size} rollouts ended in a sandbox error` };
  if (group.completed < group.size) return { kind: 'incomplete', reason: `${group.completed} of ${group.size} rollouts finished` };
  if (group.passes >= Math.min(releaseAt, group.size)) return { kind: 'pass', saturated: group.passes === group.size };
  return { kind: 'hold', allFail: group.passes === 0 };
}

// A rollout's verdict: timed-out rollouts were scored with the low reward and count as failures.
export function passes(reward: number | null, passThreshold: number): boolean {
  return reward !== null && reward >= passThreshold;
}
