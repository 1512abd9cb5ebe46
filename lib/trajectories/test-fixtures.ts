// Rollout rows for the trajectory tests, written straight through Prisma.
import type { Db } from '../db/client.ts';
import { refreshSuspicion } from './suspicion-store.ts';

export interface RolloutSeed {
  versionId: string;
  reward?: number | null;
  passed?: boolean | null;
  turns?: number;
  durationMs?: number;
  policy?: string;
  simulated?: boolean;
  timedOut?: boolean;
  touchedProtected?: boolean;
  changedFiles?: { path: string; size: number; blobHash: string }[];
  lineageId?: string | null;
  generationId?: string | null;
  createdAt?: Date;
  steps?: { command: string; output: string; exitCode?: number; message?: string }[];
}

let seedCounter = 0;

export async function seedRollout(db: Db, seed: RolloutSeed): Promise<string> {
  const reward = seed.reward === undefined ? 1 : seed.reward;
  const rollout = await db.rollout.create({
    data: {
      attempt: 1,
      versionId: seed.versionId,
      lineageId: seed.lineageId ?? null,
      generationId: seed.generationId ?? null,
      policy: seed.policy ?? 'oracle',
      policyVersion: '1',
      simulated: seed.simulated ?? false,
      seed: ++seedCounter,
      status: seed.timedOut ? 'timed-out' : 'completed',
      reward,
      passed: seed.passed === undefined ? (reward === null ? null : reward >= 1) : seed.passed,
      timedOut: seed.timedOut ?? false,
      turns: seed.turns ?? seed.steps?.length ?? 0,
      durationMs: seed.durationMs ?? 1000,
      touchedProtected: seed.touchedProtected ?? false,
      changedFiles: JSON.stringify(seed.changedFiles ?? [{ path: 'app/out.txt', size: 3, blobHash: 'x' }]),
      createdAt: seed.createdAt,
      verifierLog: 'verifier ran\n',
      verifierExitCode: 0,
    },
  });
  if (seed.steps) {
    await db.trajectoryStep.createMany({
      data: [
        { rolloutId: rollout.id, stepId: 1, source: 'user', message: 'Do the task.' },
        ...seed.steps.map((step, i) => ({
          rolloutId: rollout.id,
          stepId: i + 2,
          source: 'agent',
          message: step.message ?? `turn ${i + 1}`,
          command: step.command,
          output: step.output,
          exitCode: step.exitCode ?? 0,
          durationMs: 10,
        })),
      ],
    });
  }
  await refreshSuspicion(db, [seed.versionId]);
  return rollout.id;
}
