// The question a backtest of an item born from a missed issue exists to answer: would the item
// have caught the generation the issue was filed on? One headline per such generation, from
// its finding; the verdict's reason is the finding's first judged line.

/** A generation a missed issue that became this item was filed on. */
export interface BacktestOrigin {
  issueId: string;
  issueTitle: string;
  generationId: string;
  generationNumber: number;
  lineageName: string;
}

export interface HeadlineFinding {
  generationId: string;
  verdict: string; // failed | error | unjudged | passed
  detail: string;
}

export type CaughtAnswer = 'yes' | 'no' | 'unknown' | 'not-run';

export interface BacktestHeadline {
  origin: BacktestOrigin;
  caught: CaughtAnswer;
  text: string;
}

// Finding details read "[executable failed] has 3 steps\n[llm unjudged] …": the line that
// decided the verdict, without its bracketed method.
function reason(finding: HeadlineFinding): string {
  const lines = finding.detail
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const deciding = lines.find((line) => line.includes(` ${finding.verdict}]`)) ?? lines[0] ?? '';
  return deciding.replace(/^\[[^\]]*\]\s*/, '');
}

function answer(finding: HeadlineFinding | undefined): { caught: CaughtAnswer; outcome: string } {
  if (!finding) return { caught: 'not-run', outcome: 'not backtested yet' };
  const why = reason(finding);
  const because = why ? ` — ${why}` : '';
  if (finding.verdict === 'failed') return { caught: 'yes', outcome: `yes, it fails${because}` };
  if (finding.verdict === 'passed') return { caught: 'no', outcome: `no, it passes${because}` };
  if (finding.verdict === 'unjudged') return { caught: 'unknown', outcome: `unknown, unjudged${because}` };
  return { caught: 'unknown', outcome: `unknown, the check errored${because}` };
}

export function backtestHeadlines(origins: readonly BacktestOrigin[], findings: readonly HeadlineFinding[]): BacktestHeadline[] {
  const byGeneration = new Map(findings.map((f) => [f.generationId, f]));
  return origins.map((origin) => {
    const { caught, outcome } = answer(byGeneration.get(origin.generationId));
    return { origin, caught, text: `Would have caught G${origin.generationNumber} of ${origin.lineageName}: ${outcome}` };
  });
}
