import { describe, expect, it } from 'vitest';
import type { AttemptRunView, RubricVerdictView } from './generation-types.ts';
import { itemVerdict, mergeRubricVerdicts, orderRuns, summaryText, verdictSummary } from './verdict-summary.ts';

const verdict = (itemKey: string, method: string, v: string): RubricVerdictView => ({
  id: `${itemKey}-${method}`,
  itemKey,
  itemVersion: 1,
  itemTitle: itemKey,
  method,
  verdict: v,
  detail: '',
});
const run = (kind: string, v: string, rubricVerdicts: RubricVerdictView[] = []) => ({ kind, verdict: v, rubricVerdicts }) as unknown as AttemptRunView;

describe('verdict summary', () => {
  it('merges an item judged by a check and a question into one row; it passes only when both passed', () => {
    const rows = mergeRubricVerdicts([verdict('a', 'executable', 'passed'), verdict('a', 'llm', 'unjudged'), verdict('b', 'executable', 'passed')]);
    expect(rows.map((r) => [r.itemKey, r.verdict, r.methods.length])).toEqual([
      ['a', 'unjudged', 2],
      ['b', 'passed', 1],
    ]);
    expect(itemVerdict(['passed', 'failed', 'unjudged'])).toBe('failed');
  });

  it('puts the oracle and invalid-test before the rubric and says it in one line', () => {
    const runs = [
      run('rubric', 'passed', [
        verdict('a', 'executable', 'passed'),
        verdict('a', 'llm', 'unjudged'),
        verdict('b', 'executable', 'passed'),
        verdict('c', 'llm', 'unjudged'),
      ]),
      run('invalid-test', 'passed'),
      run('oracle', 'passed'),
    ];
    expect(orderRuns(runs).map((r) => r.kind)).toEqual(['oracle', 'invalid-test', 'rubric']);
    // Counted per verdict: a's check and b's check judged, a's and c's questions wait for an LLM.
    expect(summaryText(verdictSummary(runs))).toBe('Oracle ✓ · Invalid-test ✓ · Rubric 2 of 4 judged, 2 need an LLM judge');
    expect(summaryText(verdictSummary([run('oracle', 'failed')]))).toBe('Oracle ✗ · Invalid-test not run · Rubric not run');
  });

  it('marks the rubric ✓ only when every verdict was judged and passed, ✗ when one failed', () => {
    const allJudged = run('rubric', 'passed', [verdict('a', 'executable', 'passed'), verdict('b', 'llm', 'passed')]);
    expect(summaryText(verdictSummary([allJudged]))).toBe('Oracle not run · Invalid-test not run · Rubric ✓ 2 of 2 judged, all passed');
    const failed = run('rubric', 'failed', [verdict('a', 'executable', 'failed'), verdict('b', 'executable', 'error'), verdict('c', 'llm', 'unjudged')]);
    expect(summaryText(verdictSummary([failed]))).toBe(
      'Oracle not run · Invalid-test not run · Rubric ✗ 1 of 3 judged (1 failed), 1 could not be judged (error), 1 needs an LLM judge',
    );
  });
});
