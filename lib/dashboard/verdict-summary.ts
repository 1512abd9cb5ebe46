// The generation page's verdicts, read first: one line ("Oracle ✓ · Invalid-test ✓ · Counter-check
// ✓ 4/4 earlier-solution runs rejected · Near misses 7/7 rejected ✓ · Rubric 8 of 19 judged, 11 need
// an LLM judge"), the trial validators before the rubric, and one rubric row
// per item. An item with both an executable check and an LLM question is judged by each method
// and stores one verdict per method; shown as two rows it looked like a duplicate item, so the
// rows are merged here into one item with both methods' verdicts.
import { countJudgement, judgementText, type RubricJudgement } from '../rubric/index.ts';
import { parseSolutionCheckReport } from '../validate/index.ts';
import type { AttemptRunView, RubricVerdictView } from './generation-types.ts';

export interface RubricItemRow {
  itemKey: string;
  itemVersion: number;
  itemTitle: string;
  verdict: string; // the item's: failed > error > unjudged > passed over its methods
  methods: Pick<RubricVerdictView, 'id' | 'method' | 'verdict' | 'detail'>[];
}

// A counter-check or near-miss verdict with its counts: runs the tests rejected of all runs.
export interface SolutionCheckCounts {
  verdict: string;
  caught: number | null; // null when the run recorded no report (it reached no trial)
  total: number | null;
}

export interface VerdictSummary {
  oracle: string | null; // the run's verdict, null when it did not run
  invalidTest: string | null;
  counterCheck: SolutionCheckCounts | null; // null: no earlier solution was run against it
  nearMiss: SolutionCheckCounts | null; // null: the bundle has no near misses (none written)
  rubric: RubricJudgement | null; // counted per verdict (item × method), see lib/rubric/judgement.ts
}

const SEVERITY = ['failed', 'error', 'unjudged', 'passed'];

// An item passes only when every method that judged it passed: a passing check beside an
// unjudged question is not a judged pass.
export function itemVerdict(verdicts: readonly string[]): string {
  return SEVERITY.find((v) => verdicts.includes(v)) ?? verdicts[0] ?? 'unjudged';
}

export function mergeRubricVerdicts(verdicts: readonly RubricVerdictView[]): RubricItemRow[] {
  const byItem = new Map<string, RubricItemRow>();
  for (const v of verdicts) {
    const key = `${v.itemKey}@${v.itemVersion}`;
    const row = byItem.get(key) ?? { itemKey: v.itemKey, itemVersion: v.itemVersion, itemTitle: v.itemTitle, verdict: v.verdict, methods: [] };
    row.methods.push({ id: v.id, method: v.method, verdict: v.verdict, detail: v.detail });
    row.verdict = itemVerdict(row.methods.map((m) => m.verdict));
    byItem.set(key, row);
  }
  return [...byItem.values()];
}

const RUN_ORDER = ['oracle', 'invalid-test', 'counter-check', 'near-miss', 'rubric'];

/** Oracle, invalid-test, counter-check, near-miss, then the rubric; anything else after, in the given order. */
export function orderRuns<R extends Pick<AttemptRunView, 'kind'>>(runs: readonly R[]): R[] {
  const rank = (kind: string) => (RUN_ORDER.includes(kind) ? RUN_ORDER.indexOf(kind) : RUN_ORDER.length);
  return [...runs].sort((a, b) => rank(a.kind) - rank(b.kind));
}

export function verdictSummary(runs: readonly AttemptRunView[]): VerdictSummary {
  const latest = (kind: string) => runs.filter((r) => r.kind === kind).at(-1) ?? null;
  const rubricRun = latest('rubric');
  const rubric = rubricRun ? countJudgement(rubricRun.rubricVerdicts) : null;
  return {
    oracle: latest('oracle')?.verdict ?? null,
    invalidTest: latest('invalid-test')?.verdict ?? null,
    counterCheck: solutionCheckCounts(latest('counter-check')),
    nearMiss: solutionCheckCounts(latest('near-miss')),
    rubric,
  };
}

function solutionCheckCounts(run: AttemptRunView | null): SolutionCheckCounts | null {
  if (!run) return null;
  const report = parseSolutionCheckReport(run.rewardDetail);
  return { verdict: run.verdict, caught: report?.caught ?? null, total: report?.total ?? null };
}

const MARK: Record<string, string> = { passed: '✓', failed: '✗', error: 'error' };

export function summaryText(summary: VerdictSummary): string {
  const run = (name: string, verdict: string | null) => `${name} ${verdict === null ? 'not run' : (MARK[verdict] ?? verdict)}`;
  const r = summary.rubric;
  // ✓ only when every verdict was judged and passed: unjudged questions are never a pass.
  const rubricMark = !r ? '' : r.failed > 0 ? '✗ ' : r.total > 0 && r.passed === r.total ? '✓ ' : '';
  const rubric = r ? `${rubricMark}${judgementText(r)}` : 'not run';
  return [
    run('Oracle', summary.oracle),
    run('Invalid-test', summary.invalidTest),
    counterCheckText(summary.counterCheck),
    nearMissText(summary.nearMiss),
    `Rubric ${rubric}`,
  ].join(' · ');
}

const counted = (c: SolutionCheckCounts) => (c.total === null ? '' : ` ${c.caught}/${c.total}`);

function counterCheckText(c: SolutionCheckCounts | null): string {
  if (!c) return 'Counter-check not run';
  return `Counter-check ${MARK[c.verdict] ?? c.verdict}${c.total === null ? '' : `${counted(c)} earlier-solution runs rejected`}`;
}

// Never a pass when nothing was checked: a bundle without near misses says so.
function nearMissText(c: SolutionCheckCounts | null): string {
  if (!c) return 'no near misses written';
  return c.total === null ? `Near misses ${MARK[c.verdict] ?? c.verdict}` : `Near misses${counted(c)} rejected ${MARK[c.verdict] ?? c.verdict}`;
}
