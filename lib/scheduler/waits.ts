// What every approved-but-unreleased generation of a lineage waits for, in words a lead can act on:
// the generation after the frontier waits for the frontier's group ("G2's group 5/8 (trainer
// checkpoint step-40) is below 0.75", "waiting for a complete trainer group on G2", "an older
// checkpoint's group (step-30); newest is step-40"); a later one waits for the generation before it. Read-only: it judges the
// frontier's group as the frontier walk would, and records nothing.
import type { Db } from '../db/index.ts';
import { GenerationState } from '../states/index.ts';
import { newestPolicyVersion, judgeGroup, lineageGate, type LineageGate } from '../gate/index.ts';
import type { SchedulerConfig } from './config.ts';
import { frontierVersionId } from './frontier.ts';
import { frontierGroup } from './frontier-group.ts';

export interface GenerationWait {
  generation: number;
  reason: string;
}

async function frontierReason(db: Db, lineage: { id: string; seedVersionId: string }, rule: LineageGate, frontier: number): Promise<string> {
  const versionId = await frontierVersionId(db, lineage, frontier);
  if (!versionId) return `G${frontier} has no released version`;
  const newest = await newestPolicyVersion(db, rule.policy);
  const found = await frontierGroup(db, rule, newest, frontier, versionId);
  if (found.kind === 'needs-probe') return `waiting for a ${rule.policy} probe of G${frontier}`;
  if (found.kind === 'waiting') return found.reason;
  const { group } = found;
  const verdict = judgeGroup(group, rule, newest as string);
  const counts = `G${frontier}'s group ${group.passes}/${group.size}${group.policyVersion ? ` (${rule.policy} checkpoint ${group.policyVersion})` : ''}`;
  if (verdict.kind === 'hold') return `${counts} is below ${rule.releaseRate}`;
  if (verdict.kind === 'pass') return `${counts} passed; the scheduler releases the next generation on its next pass`;
  return verdict.reason;
}

export interface LineageWaits {
  frontier: string | null; // what the next release waits for; null for an unknown lineage
  generations: GenerationWait[]; // each approved, unreleased generation after the frontier, ascending
}

export async function lineageWaits(db: Db, lineageId: string, config: SchedulerConfig): Promise<LineageWaits> {
  const lineage = await db.lineage.findUnique({ where: { id: lineageId } });
  if (!lineage) return { frontier: null, generations: [] };
  const frontier = lineage.frontier ?? 0;
  const [reason, approved] = await Promise.all([
    frontierReason(db, lineage, lineageGate(lineage, config), frontier),
    db.generation.findMany({
      where: { lineageId, state: GenerationState.approved, number: { gt: frontier } },
      orderBy: { number: 'asc' },
      select: { number: true },
    }),
  ]);
  const numbers = [...new Set(approved.map((g) => g.number))];
  const approvedSet = new Set(numbers);
  const generations = numbers.map((n) => {
    if (n === frontier + 1) return { generation: n, reason };
    const before = n - 1;
    return { generation: n, reason: approvedSet.has(before) ? `waits for G${before} to be released first` : `waits for G${before}, which is not approved yet` };
  });
  return { frontier: reason, generations };
}
