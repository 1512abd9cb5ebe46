// The rubric verdicts of every rubric validator run of a generation's attempts, each naming the
// item version that judged (key@version) and the run's rubric version, with what the run judged;
// and what any set of rubric runs judged, for the pages that list runs without their verdicts.
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { countJudgement, judgementsByRun, judgementText, NO_JUDGEMENT, rubricRunLabel, type RubricJudgement } from './judgement.ts';

export const runVerdictsQuerySchema = z.object({ generationId: z.string().min(1).max(64) });

export interface RubricRunView {
  id: string;
  attempt: number | null;
  versionId: string;
  verdict: string; // the gate: 'passed' = no judged item failed (lib/rubric/judgement.ts)
  label: string; // what to call the run: 'passed' only when every verdict was judged and passed
  judgement: RubricJudgement & { text: string }; // "8 of 19 judged, 11 need an LLM judge"
  rubricVersion: string | null;
  verdicts: { item: string; itemId: string; method: string; verdict: string; detail: string | null }[];
}

export async function rubricRunsOfGeneration(db: Db, generationId: string): Promise<RubricRunView[]> {
  const runs = await db.validatorRun.findMany({
    where: { kind: 'rubric', attempt: { generationId } },
    orderBy: { createdAt: 'asc' },
    include: { attempt: { select: { number: true } }, rubricVerdicts: { include: { item: { select: { key: true, version: true } } } } },
  });
  return runs.map((run) => {
    const judgement = countJudgement(run.rubricVerdicts);
    return {
      id: run.id,
      attempt: run.attempt?.number ?? null,
      versionId: run.versionId,
      verdict: run.verdict,
      label: rubricRunLabel(run.verdict, judgement),
      judgement: { ...judgement, text: judgementText(judgement) },
      rubricVersion: run.rubricVersion,
      verdicts: run.rubricVerdicts.map((v) => ({
        item: `${v.item.key}@${v.item.version}`,
        itemId: v.itemId,
        method: v.method,
        verdict: v.verdict,
        detail: v.detail,
      })),
    };
  });
}

// What each rubric run judged, in one grouped query; a run without verdicts judged nothing.
export async function rubricJudgements(db: Db, runIds: readonly string[]): Promise<Map<string, RubricJudgement>> {
  if (runIds.length === 0) return new Map();
  const groups = await db.rubricVerdict.groupBy({ by: ['validatorRunId', 'verdict'], where: { validatorRunId: { in: [...runIds] } }, _count: { _all: true } });
  const byRun = judgementsByRun(groups.map((g) => ({ validatorRunId: g.validatorRunId, verdict: g.verdict, count: g._count._all })));
  return new Map(runIds.map((id) => [id, byRun.get(id) ?? NO_JUDGEMENT]));
}
