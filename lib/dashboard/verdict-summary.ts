// The generation page's verdicts, read first: one line ("Oracle ✓ · Invalid-test ✓ · Rubric 7
// passed, 11 unjudged"), the oracle and invalid-test runs before the rubric, and one rubric row
// per item. An item with both an executable check and an LLM question is judged by each method
// and stores one verdict per method; shown as two rows it looked like a duplicate item, so the
// rows are merged here into one item with both methods' verdicts.
import type { AttemptRunView, RubricVerdictView } from './generation-types.ts';

export interface RubricItemRow {
  itemKey: string;
  itemVersion: number;
  itemTitle: string;
  verdict: string; // the item's: failed > error > unjudged > passed over its methods
  methods: Pick<RubricVerdictView, 'id' | 'method' | 'verdict' | 'detail'>[];
}

export interface RubricCounts {
  passed: number;
  failed: number;
  error: number;
  unjudged: number;
}

export interface VerdictSummary {
  oracle: string | null; // the run's verdict, null when it did not run
  invalidTest: string | null;
  rubric: RubricCounts | null;
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

const RUN_ORDER = ['oracle', 'invalid-test', 'rubric'];

/** Oracle, then invalid-test, then the rubric; anything else after, in the given order. */
export function orderRuns<R extends Pick<AttemptRunView, 'kind'>>(runs: readonly R[]): R[] {
  const rank = (kind: string) => (RUN_ORDER.includes(kind) ? RUN_ORDER.indexOf(kind) : RUN_ORDER.length);
  return [...runs].sort((a, b) => rank(a.kind) - rank(b.kind));
}

export function verdictSummary(runs: readonly AttemptRunView[]): VerdictSummary {
  const latest = (kind: string) => runs.filter((r) => r.kind === kind).at(-1) ?? null;
  const rubricRun = latest('rubric');
  let rubric: RubricCounts | null = null;
  if (rubricRun) {
    rubric = { passed: 0, failed: 0, error: 0, unjudged: 0 };
    for (const item of mergeRubricVerdicts(rubricRun.rubricVerdicts)) {
      if (item.verdict in rubric) rubric[item.verdict as keyof RubricCounts] += 1;
    }
  }
  return { oracle: latest('oracle')?.verdict ?? null, invalidTest: latest('invalid-test')?.verdict ?? null, rubric };
}

const MARK: Record<string, string> = { passed: '✓', failed: '✗', error: 'error' };

export function summaryText(summary: VerdictSummary): string {
  const run = (name: string, verdict: string | null) => `${name} ${verdict === null ? 'not run' : (MARK[verdict] ?? verdict)}`;
  const r = summary.rubric;
  const counts = r
    ? (['passed', 'failed', 'error', 'unjudged'] as const)
        .filter((k) => r[k] > 0)
        .map((k) => `${r[k]} ${k}`)
        .join(', ') || 'no items'
    : 'not run';
  return [run('Oracle', summary.oracle), run('Invalid-test', summary.invalidTest), `Rubric ${counts}`].join(' · ');
}
