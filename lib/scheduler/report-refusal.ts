// Whether a trainer's rewards for a version may be counted at all. Rewards for a version that
// is not served (servable.ts: flagged, held out, rejected, superseded) would move frontiers on
// environments nobody may train on; rewards outside the range the environment declares are a
// trainer bug, not a verdict.
import { parse } from 'smol-toml';
import type { Db } from '../db/index.ts';
import { unservableReason, type Unservable } from './servable.ts';

/** Harbor verifiers write a reward in [0, 1] unless the task declares `[verifier] reward_range = [min, max]`. */
export const DEFAULT_REWARD_RANGE: readonly [number, number] = [0, 1];

export type ReportRefusal = Unservable | { kind: 'reward_out_of_range'; message: string };

export function declaredRewardRange(taskToml: string): readonly [number, number] {
  let verifier: unknown;
  try {
    verifier = (parse(taskToml) as { verifier?: unknown }).verifier;
  } catch {
    return DEFAULT_REWARD_RANGE;
  }
  const range = verifier && typeof verifier === 'object' ? (verifier as { reward_range?: unknown }).reward_range : undefined;
  if (Array.isArray(range) && range.length === 2 && range.every((n) => typeof n === 'number' && Number.isFinite(n)) && range[0] < range[1]) {
    return [range[0], range[1]];
  }
  return DEFAULT_REWARD_RANGE;
}

export async function trainerReportRefusal(
  db: Db,
  report: { versionId: string; rewards: (number | null)[]; timeoutReward?: number },
): Promise<ReportRefusal | null> {
  const unservable = await unservableReason(db, report.versionId);
  if (unservable) return unservable;
  const version = await db.environmentVersion.findUniqueOrThrow({ where: { id: report.versionId }, select: { taskToml: true } });
  const [min, max] = declaredRewardRange(version.taskToml);
  const rewards = [...report.rewards.filter((r): r is number => r !== null), ...(report.timeoutReward === undefined ? [] : [report.timeoutReward])];
  const outside = rewards.find((r) => r < min || r > max);
  if (outside !== undefined)
    return { kind: 'reward_out_of_range', message: `reward ${outside} is outside the range [${min}, ${max}] this environment declares` };
  return null;
}
