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
    expect(summaryText(verdictSummary(runs))).toBe('Oracle ✓ · Invalid-test ✓ · Rubric 1 passed, 2 unjudged');
    expect(summaryText(verdictSummary([run('oracle', 'failed')]))).toBe('Oracle ✗ · Invalid-test not run · Rubric not run');
  });
});
