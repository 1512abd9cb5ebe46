// Trajectories for calibration tests, written straight through Prisma (the rollout runner is not
// needed to label what a rollout left behind).
import { createHash } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { refreshSuspicion } from '../trajectories/suspicion-store.ts';

export interface FixtureRollout {
  id: string;
  passed: boolean;
  reward?: number;
  /** Shown to the annotator as the agent's one command and its output. */
  command?: string;
  output?: string;
  /** Artifacts: absolute container path → content. */
  files?: Record<string, string>;
  status?: string;
}

export async function seedRollouts(db: Db, versionId: string, rollouts: readonly FixtureRollout[]): Promise<void> {
  for (const r of rollouts) {
    const changed = [];
    for (const [path, content] of Object.entries(r.files ?? {})) {
      const hash = createHash('sha256').update(content).digest('hex');
      await db.blob.upsert({ where: { hash }, create: { hash, size: Buffer.byteLength(content), content: Buffer.from(content) }, update: {} });
      changed.push({ path, size: Buffer.byteLength(content), blobHash: hash });
    }
    await db.rollout.create({
      data: {
        id: r.id,
        attempt: 1,
        versionId,
        policy: 'simulated',
        policyVersion: '1',
        seed: 1,
        status: r.status ?? 'completed',
        reward: r.reward ?? (r.passed ? 1 : 0),
        passed: r.passed,
        verifierLog: `VERIFIER-LOG-${r.id}`,
        rewardDetail: JSON.stringify({ reward: r.passed ? 1 : 0 }),
        changedFiles: JSON.stringify(changed),
        steps: {
          create: [
            { stepId: 1, source: 'user', message: 'Do the task.' },
            { stepId: 2, source: 'agent', message: `working on ${r.id}`, reasoning: 'simulated mistake: skipped-output-write', command: r.command ?? `echo ${r.id}`, output: r.output ?? `${r.id}\n`, exitCode: 0 },
          ],
        },
      },
    });
  }
  await refreshSuspicion(db, [versionId]);
}
