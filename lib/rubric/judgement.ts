// What a rubric run judged, counted from its verdicts, and how that is said to people.
//
// A rubric run's stored verdict is its gate: 'passed' means no item a judge reached failed or
// erred, and it lets the candidate through even when LLM questions went unasked (the procedural
// synthesiser and a deployment without an LLM judge none). So the stored word alone never
// describes a rubric run: every place that shows one says how many of its verdicts were judged and
// how many still need an LLM judge ("8 of 19 judged, 11 need an LLM judge"), and calls the run
// "passed" only when every verdict was judged and passed.
//
// The unit is one verdict: an item with an executable check and an LLM question is judged twice
// (one verdict per method), so its check can be judged while its question waits for an LLM.

export interface RubricJudgement {
  total: number; // verdicts the run stored
  judged: number; // passed + failed: a judge reached a verdict
  passed: number;
  failed: number;
  error: number; // a check or the judge broke: tried, but no verdict about the environment
  unjudged: number; // nobody judged (an LLM question without an LLM)
}

export const NO_JUDGEMENT: RubricJudgement = { total: 0, judged: 0, passed: 0, failed: 0, error: 0, unjudged: 0 };

export function countJudgement(verdicts: ReadonlyArray<{ verdict: string }>): RubricJudgement {
  const count = (value: string) => verdicts.filter((v) => v.verdict === value).length;
  const passed = count('passed');
  const failed = count('failed');
  return { total: verdicts.length, judged: passed + failed, passed, failed, error: count('error'), unjudged: count('unjudged') };
}

// The same counts from grouped rows (Prisma groupBy over RubricVerdict by run and verdict).
export function judgementsByRun(rows: ReadonlyArray<{ validatorRunId: string; verdict: string; count: number }>): Map<string, RubricJudgement> {
  const byRun = new Map<string, { verdict: string }[]>();
  for (const row of rows) {
    const verdicts = byRun.get(row.validatorRunId) ?? [];
    for (let i = 0; i < row.count; i++) verdicts.push({ verdict: row.verdict });
    byRun.set(row.validatorRunId, verdicts);
  }
  return new Map([...byRun.entries()].map(([runId, verdicts]) => [runId, countJudgement(verdicts)]));
}

// "8 of 19 judged, 11 need an LLM judge"; "19 of 19 judged, all passed"; failures and errors named.
export function judgementText(j: RubricJudgement): string {
  if (j.total === 0) return 'no items';
  const judged = `${j.judged} of ${j.total} judged`;
  const outcome = j.failed > 0 ? ` (${j.failed} failed)` : j.judged > 0 && j.judged === j.total ? ', all passed' : '';
  const parts = [`${judged}${outcome}`];
  if (j.error > 0) parts.push(`${j.error} could not be judged (error)`);
  if (j.unjudged > 0) parts.push(`${j.unjudged} need${j.unjudged === 1 ? 's' : ''} an LLM judge`);
  return parts.join(', ');
}

// The word a rubric run's badge shows: its stored gate verdict, except that a run that failed
// nothing yet left verdicts unjudged or erred is "partly judged", never "passed".
export function rubricRunLabel(verdict: string, j: RubricJudgement): string {
  if (verdict !== 'passed') return verdict;
  if (j.total === 0) return 'no items';
  return j.judged === j.total ? 'passed' : 'partly judged';
}
