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
    expect(summaryText(verdictSummary(runs))).toBe(
      'Oracle ✓ · Invalid-test ✓ · Counter-check not run · no near misses written · Rubric 2 of 4 judged, 2 need an LLM judge',
    );
    expect(summaryText(verdictSummary([run('oracle', 'failed')]))).toBe(
      'Oracle ✗ · Invalid-test not run · Counter-check not run · no near misses written · Rubric not run',
    );
  });

  it('counts the runs the counter-check and the near-miss validator rejected, from their reports', () => {
    const report = (kind: string, caught: number, total: number) =>
      JSON.stringify({
        kind,
        checkedSteps: kind === 'counter-check' ? ['s2'] : null,
        caught,
        total,
        runs: Array.from({ length: total }, (_, i) => ({
          id: `r${i + 1}`,
          label: `run ${i + 1}`,
          pass: 'as-is',
          reward: i < caught ? 0 : 1,
          steps: [],
          outcome: i < caught ? 'caught' : 'let-through',
          why: '',
          agentExitCode: 0,
          agentTimedOut: false,
        })),
      });
    const withReport = (kind: string, v: string, detail: string | null) => ({ ...run(kind, v), rewardDetail: detail }) as AttemptRunView;
    const runs = [
      withReport('near-miss', 'failed', report('near-miss', 6, 7)),
      withReport('counter-check', 'passed', report('counter-check', 4, 4)),
      run('oracle', 'passed'),
      run('invalid-test', 'passed'),
    ];
    expect(orderRuns(runs).map((r) => r.kind)).toEqual(['oracle', 'invalid-test', 'counter-check', 'near-miss']);
    expect(summaryText(verdictSummary(runs))).toBe(
      'Oracle ✓ · Invalid-test ✓ · Counter-check ✓ 4/4 earlier-solution runs rejected · Near misses 6/7 rejected ✗ · Rubric not run',
    );
    // A run that reached no trial has no report: its verdict alone, never a count it does not have.
    expect(summaryText(verdictSummary([withReport('near-miss', 'error', null)]))).toContain('Near misses error');
  });

  it('marks the rubric ✓ only when every verdict was judged and passed, ✗ when one failed', () => {
    const allJudged = run('rubric', 'passed', [verdict('a', 'executable', 'passed'), verdict('b', 'llm', 'passed')]);
    expect(summaryText(verdictSummary([allJudged]))).toBe(
      'Oracle not run · Invalid-test not run · Counter-check not run · no near misses written · Rubric ✓ 2 of 2 judged, all passed',
    );
    const failed = run('rubric', 'failed', [verdict('a', 'executable', 'failed'), verdict('b', 'executable', 'error'), verdict('c', 'llm', 'unjudged')]);
    expect(summaryText(verdictSummary([failed]))).toBe(
      'Oracle not run · Invalid-test not run · Counter-check not run · no near misses written · Rubric ✗ 1 of 3 judged (1 failed), 1 could not be judged (error), 1 needs an LLM judge',
    );
  });
});
