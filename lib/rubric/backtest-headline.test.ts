import { describe, expect, it } from 'vitest';
import { backtestHeadlines, type BacktestOrigin } from './backtest-headline.ts';

const origin: BacktestOrigin = { issueId: 'mi1', issueTitle: 'Too few steps', generationId: 'g1', generationNumber: 1, lineageName: 'log-report' };

describe('backtestHeadlines', () => {
  it('answers yes with the failing reason when the item fails the generation the issue was filed on', () => {
    const [headline] = backtestHeadlines(
      [origin],
      [
        { generationId: 'g2', verdict: 'passed', detail: '[executable passed] has 7 steps' },
        { generationId: 'g1', verdict: 'failed', detail: '[executable failed] has 3 steps\n[llm unjudged] no LLM is configured' },
      ],
    );
    expect(headline).toMatchObject({ caught: 'yes', text: 'Would have caught G1 of log-report: yes, it fails — has 3 steps' });
  });

  it('answers no when it passes, and unknown when it errored or nobody judged it', () => {
    const verdicts = ['passed', 'error', 'unjudged'].map(
      (verdict) => backtestHeadlines([origin], [{ generationId: 'g1', verdict, detail: `[llm ${verdict}] why` }])[0],
    );
    expect(verdicts.map((h) => h?.caught)).toEqual(['no', 'unknown', 'unknown']);
    expect(verdicts.map((h) => h?.text)).toEqual([
      'Would have caught G1 of log-report: no, it passes — why',
      'Would have caught G1 of log-report: unknown, the check errored — why',
      'Would have caught G1 of log-report: unknown, unjudged — why',
    ]);
  });

  it('says the generation was not backtested yet when it has no finding', () => {
    expect(backtestHeadlines([origin], [])[0]).toMatchObject({ caught: 'not-run', text: 'Would have caught G1 of log-report: not backtested yet' });
  });

  it('has no headline for an item no missed issue became', () => {
    expect(backtestHeadlines([], [{ generationId: 'g1', verdict: 'failed', detail: 'x' }])).toEqual([]);
  });
});
