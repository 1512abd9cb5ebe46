// What the dashboard shows of the scheduler for one environment version: its probe and trainer
// groups (newest first) with their rollouts, and where the lineage's frontier stands.
import type { Db } from '../db/index.ts';

export interface ProbeRolloutView {
  id: string;
  attempt: number;
  status: string;
  reward: number | null;
  passed: boolean | null;
  timedOut: boolean;
  turns: number;
  durationMs: number;
}

export interface ProbeGroupView {
  id: string;
  purpose: string;
  policy: string;
  policyVersion: string;
  simulated: boolean;
  size: number;
  passes: number;
  completed: number;
  timeouts: number;
  errors: number;
  state: string;
  gate: string | null;
  createdAt: string;
  rollouts: ProbeRolloutView[];
}

const GROUPS_SHOWN = 5;

export async function probeGroupsOf(db: Db, versionId: string): Promise<ProbeGroupView[]> {
  const groups = await db.probeGroup.findMany({
    where: { versionId, purpose: { in: ['probe', 'trainer'] } },
    orderBy: { createdAt: 'desc' },
    take: GROUPS_SHOWN,
    include: {
      rollouts: {
        orderBy: { attempt: 'asc' },
        select: { id: true, attempt: true, status: true, reward: true, passed: true, timedOut: true, turns: true, durationMs: true },
      },
    },
  });
  return groups.map((g) => ({
    id: g.id,
    purpose: g.purpose,
    policy: g.policy,
    policyVersion: g.policyVersion,
    simulated: g.simulated,
    size: g.size,
    passes: g.passes,
    completed: g.completed,
    timeouts: g.timeouts,
    errors: g.errors,
    state: g.state,
    gate: g.gate,
    createdAt: g.createdAt.toISOString(),
    rollouts: g.rollouts,
  }));
}
