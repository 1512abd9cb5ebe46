// The rubric verdicts of every rubric validator run of a generation's attempts, each naming the
// item version that judged (key@version) and the run's rubric version.
import { z } from 'zod';
import type { Db } from '../db/index.ts';

export const runVerdictsQuerySchema = z.object({ generationId: z.string().min(1).max(64) });

export interface RubricRunView {
  id: string;
  attempt: number | null;
  versionId: string;
  verdict: string;
  rubricVersion: string | null;
  verdicts: { item: string; itemId: string; method: string; verdict: string; detail: string | null }[];
}

export async function rubricRunsOfGeneration(db: Db, generationId: string): Promise<RubricRunView[]> {
  const runs = await db.validatorRun.findMany({
    where: { kind: 'rubric', attempt: { generationId } },
    orderBy: { createdAt: 'asc' },
    include: { attempt: { select: { number: true } }, rubricVerdicts: { include: { item: { select: { key: true, version: true } } } } },
  });
  return runs.map((run) => ({
    id: run.id,
    attempt: run.attempt?.number ?? null,
    versionId: run.versionId,
    verdict: run.verdict,
    rubricVersion: run.rubricVersion,
    verdicts: run.rubricVerdicts.map((v) => ({
      item: `${v.item.key}@${v.item.version}`,
      itemId: v.itemId,
      method: v.method,
      verdict: v.verdict,
      detail: v.detail,
    })),
  }));
}
