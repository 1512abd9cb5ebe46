// What two rollouts of the same scripted actions observed, compared turn by turn. Any difference
// is a defect of the environment (a deterministic reset must give the same observations). Only
// wall-clock quantities are left out, and they are listed in IGNORED so reports can say so.
export interface TurnObservation {
  stepId: number;
  source: string;
  message: string;
  command: string | null;
  output: string | null;
  exitCode: number | null;
  timedOut: boolean;
}

export interface RolloutObservation {
  status: string;
  reward: number | null;
  passed: boolean | null;
  timedOut: boolean;
  verifierOutput: string;
  verifierExitCode: number | null;
  rewardDetail: unknown;
  ctrf: unknown;
  changedFiles: Array<{ path: string; blobHash: string }>;
  steps: TurnObservation[];
}

export interface Difference {
  where: string; // "turn 3" or "outcome"
  field: string;
  first: unknown;
  second: unknown;
}

export const IGNORED = ['wall-clock durations (per command, per phase, per rollout)', 'timestamps and ids', 'CTRF timing fields (start, stop, duration)'];

const CTRF_TIMING = new Set(['start', 'stop', 'duration']);

export function withoutTiming(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTiming);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !CTRF_TIMING.has(k))
      .map(([k, v]) => [k, withoutTiming(v)]),
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const TURN_FIELDS = ['source', 'message', 'command', 'output', 'exitCode', 'timedOut'] as const;

export function diffRollouts(first: RolloutObservation, second: RolloutObservation): Difference[] {
  const differences: Difference[] = [];
  const turns = Math.max(first.steps.length, second.steps.length);
  for (let i = 0; i < turns; i++) {
    const a = first.steps[i];
    const b = second.steps[i];
    const where = `turn ${i + 1}`;
    if (!a || !b) {
      differences.push({ where, field: 'present', first: a !== undefined, second: b !== undefined });
      continue;
    }
    for (const field of TURN_FIELDS) if (!same(a[field], b[field])) differences.push({ where, field, first: a[field], second: b[field] });
  }
  const outcome = (field: string, a: unknown, b: unknown) => {
    if (!same(a, b)) differences.push({ where: 'outcome', field, first: a, second: b });
  };
  outcome('status', first.status, second.status);
  outcome('reward', first.reward, second.reward);
  outcome('passed', first.passed, second.passed);
  outcome('timedOut', first.timedOut, second.timedOut);
  outcome('verifierOutput', first.verifierOutput, second.verifierOutput);
  outcome('verifierExitCode', first.verifierExitCode, second.verifierExitCode);
  outcome('rewardDetail', first.rewardDetail, second.rewardDetail);
  outcome('ctrf', withoutTiming(first.ctrf), withoutTiming(second.ctrf));
  const files = (o: RolloutObservation) => new Map(o.changedFiles.map((f) => [f.path, f.blobHash]));
  const [fa, fb] = [files(first), files(second)];
  for (const path of [...new Set([...fa.keys(), ...fb.keys()])].sort()) {
    if (fa.get(path) !== fb.get(path))
      differences.push({ where: 'outcome', field: `changed file ${path}`, first: fa.get(path) ?? 'absent', second: fb.get(path) ?? 'absent' });
  }
  return differences;
}
