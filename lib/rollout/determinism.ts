// `envolve determinism`: the same scripted actions (a seeded simulated agent, or the oracle) run
// twice on fresh containers of one environment version with the same seed; every observation is
// compared turn by turn. Both rollouts are kept, in a ProbeGroup of purpose 'determinism'.
import type { Db } from '../db/index.ts';
import type { Sandbox } from '../sandbox/index.ts';
import { finishGroup } from '../gate/index.ts';
import { diffRollouts, IGNORED, type Difference, type RolloutObservation } from './determinism-diff.ts';
import { runRollout } from './run.ts';
import type { Policy } from './types.ts';

export interface DeterminismReport {
  versionId: string;
  policy: string;
  seed: number;
  rolloutIds: [string, string];
  deterministic: boolean;
  differences: Difference[];
  ignored: string[];
}

async function observe(db: Db, id: string): Promise<RolloutObservation> {
  const r = await db.rollout.findUniqueOrThrow({ where: { id }, include: { steps: { orderBy: { stepId: 'asc' } } } });
  const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
  return {
    status: r.status,
    reward: r.reward,
    passed: r.passed,
    timedOut: r.timedOut,
    verifierOutput: r.verifierLog,
    verifierExitCode: r.verifierExitCode,
    rewardDetail: parse(r.rewardDetail),
    ctrf: parse(r.ctrf),
    changedFiles: (JSON.parse(r.changedFiles) as Array<{ path: string; blobHash: string }>).map(({ path, blobHash }) => ({ path, blobHash })),
    steps: r.steps.map((s) => ({
      stepId: s.stepId,
      source: s.source,
      message: s.message,
      command: s.command,
      output: s.output,
      exitCode: s.exitCode,
      timedOut: s.timedOut,
    })),
  };
}

export async function checkDeterminism(
  deps: { db: Db; sandbox: Sandbox },
  req: { versionId: string; policy: Policy; seed: number; progress?: (message: string) => void },
): Promise<DeterminismReport> {
  const group = await deps.db.probeGroup.create({
    data: {
      versionId: req.versionId,
      purpose: 'determinism',
      policy: req.policy.name,
      policyVersion: req.policy.version,
      simulated: req.policy.simulated,
      size: 2,
    },
  });
  const ids: string[] = [];
  for (const attempt of [1, 2]) {
    const r = await runRollout(deps, {
      versionId: req.versionId,
      policy: req.policy,
      seed: req.seed,
      attempt,
      groupId: group.id,
      labels: { 'envolve.purpose': 'determinism' },
    });
    req.progress?.(`run ${attempt}: ${r.status}, reward ${r.reward ?? '–'}, ${r.turns} turns`);
    ids.push(r.id);
  }
  await finishGroup(deps.db, group.id);
  const differences = diffRollouts(await observe(deps.db, ids[0]!), await observe(deps.db, ids[1]!));
  return {
    versionId: req.versionId,
    policy: req.policy.name,
    seed: req.seed,
    rolloutIds: [ids[0]!, ids[1]!],
    deterministic: differences.length === 0,
    differences,
    ignored: IGNORED,
  };
}
