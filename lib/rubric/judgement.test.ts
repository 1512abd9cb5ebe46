// What a rubric run says it judged: counts per verdict, the words shown, and the badge that says
// "passed" only when every verdict was judged and passed.
import { describe, expect, it } from 'vitest';
import { countJudgement, judgementsByRun, judgementText, rubricRunLabel } from './judgement.ts';

const verdicts = (counts: Record<string, number>) => Object.entries(counts).flatMap(([verdict, n]) => Array.from({ length: n }, () => ({ verdict })));

describe('rubric judgement', () => {
  it('says a run of 8 passed checks and 11 unasked questions judged 8 of 19, never that it passed', () => {
    const j = countJudgement(verdicts({ passed: 8, unjudged: 11 }));
    expect(j).toEqual({ total: 19, judged: 8, passed: 8, failed: 0, error: 0, unjudged: 11 });
    expect(judgementText(j)).toBe('8 of 19 judged, 11 need an LLM judge');
    expect(rubricRunLabel('passed', j)).toBe('partly judged');
  });

  it('calls a run passed only when everything was judged and passed', () => {
    const j = countJudgement(verdicts({ passed: 19 }));
    expect(judgementText(j)).toBe('19 of 19 judged, all passed');
    expect(rubricRunLabel('passed', j)).toBe('passed');
    expect(rubricRunLabel('failed', countJudgement(verdicts({ passed: 7, failed: 1, unjudged: 11 })))).toBe('failed');
    expect(judgementText(countJudgement(verdicts({ passed: 7, failed: 1, unjudged: 11 })))).toBe('8 of 19 judged (1 failed), 11 need an LLM judge');
    expect(rubricRunLabel('passed', countJudgement([]))).toBe('no items');
  });

  it('counts grouped rows per run', () => {
    const byRun = judgementsByRun([
      { validatorRunId: 'r1', verdict: 'passed', count: 8 },
      { validatorRunId: 'r1', verdict: 'unjudged', count: 11 },
      { validatorRunId: 'r2', verdict: 'error', count: 1 },
    ]);
    expect(byRun.get('r1')).toMatchObject({ total: 19, judged: 8, unjudged: 11 });
    expect(judgementText(byRun.get('r2')!)).toBe('0 of 1 judged, 1 could not be judged (error)');
  });
});
