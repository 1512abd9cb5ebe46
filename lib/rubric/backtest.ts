// Backtest: one rubric item run over the versions of generations already past the validators
// (by default approved, released and awaiting review), to find what it would have caught, and
// always over the generations the missed issues it came from were filed on, whatever their
// state: whether it catches those is the first thing the lead asks (backtest-headline.ts).
// Executable checks run in a sandbox, one container per version, two at a time; built-in checks run
// in-process; LLM questions go to the judge if one is configured and are otherwise 'unjudged'. Each run replaces the
// item's earlier findings, except those already sent back to review (kept as history).
import type { Db, BacktestFinding, RubricItem } from '../db/index.ts';
import { STANDING_STATES } from '../states/index.ts';
import { loadBundle } from '../env/index.ts';
import type { Sandbox } from '../sandbox/index.ts';
import type { Synthesiser } from '../synth/index.ts';
import type { BacktestOrigin } from './backtest-headline.ts';
import { builtinVerdict, checkVerdict, runVerdict, type ItemVerdict } from './verdicts.ts';
import { toItemView } from './view.ts';

export const DEFAULT_BACKTEST_STATES = STANDING_STATES;
export const BACKTEST_CONCURRENCY = 2;

export interface BacktestOptions {
  db: Db;
  // The sandbox a version's checks run in: the caller's choice, its lineage's (evolution's
  // versionSandbox) wherever the version's own validation ran there.
  sandboxOf: (versionId: string) => Promise<Sandbox>;
  judge: Synthesiser | null; // null: no LLM configured, questions stay unjudged
  itemId: string;
  states?: readonly string[]; // generation states to run over
  concurrency?: number;
  labels?: Record<string, string>;
  progress?: (message: string) => void;
}

interface Target {
  generationId: string;
  versionId: string;
}

export interface BacktestResult {
  item: RubricItem;
  states: string[];
  findings: BacktestFinding[];
}

// A lineage item is only ever in force on its own lineage, so it is only backtested there.
async function targets(db: Db, item: RubricItem, states: readonly string[]): Promise<Target[]> {
  const origins = (await backtestOrigins(db, item)).map((o) => o.generationId);
  const rows = await db.generation.findMany({
    where: {
      versionId: { not: null },
      OR: [{ state: { in: [...states] }, ...(item.scope === 'lineage' ? { lineageId: item.lineageId ?? '' } : {}) }, { id: { in: origins } }],
    },
    orderBy: [{ lineageId: 'asc' }, { number: 'asc' }],
    select: { id: true, versionId: true },
  });
  return rows.map((r) => ({ generationId: r.id, versionId: r.versionId! }));
}

async function judgeOne(options: BacktestOptions, item: RubricItem, target: Target): Promise<{ verdict: string; detail: string }> {
  const bundle = await loadBundle(options.db, target.versionId);
  const verdicts: ItemVerdict[] = [];
  if (item.check !== null) {
    try {
      const sandbox = await options.sandboxOf(target.versionId);
      const checks = await sandbox.runChecks({
        files: bundle.files,
        checks: [{ id: item.id, script: item.check }],
        labels: { ...options.labels, 'envolve.validator': 'backtest', 'envolve.version': target.versionId },
      });
      const result = checks.results[0];
      verdicts.push(result ? checkVerdict(result) : { method: 'executable', verdict: 'error', detail: 'the sandbox returned no result', durationMs: 0 });
    } catch (err) {
      verdicts.push({ method: 'executable', verdict: 'error', detail: `sandbox failure: ${err instanceof Error ? err.message : String(err)}`, durationMs: 0 });
    }
  }
  if (item.builtinCheck !== null) verdicts.push(await builtinVerdict(item.builtinCheck, bundle));
  if (item.question !== null) {
    if (!options.judge) verdicts.push({ method: 'llm', verdict: 'unjudged', detail: 'no LLM is configured', durationMs: 0 });
    else {
      try {
        const answer = await options.judge.judge({ bundle, item: toItemView(item) });
        verdicts.push({ method: 'llm', verdict: answer.verdict, detail: answer.explanation, durationMs: 0 });
      } catch (err) {
        verdicts.push({ method: 'llm', verdict: 'error', detail: `the judge failed: ${err instanceof Error ? err.message : String(err)}`, durationMs: 0 });
      }
    }
  }
  // Both methods: the finding fails if either does; only-unjudged stays unjudged, never passed.
  const verdict = verdicts.every((v) => v.verdict === 'unjudged') ? 'unjudged' : runVerdict(verdicts.filter((v) => v.verdict !== 'unjudged'));
  const detail = verdicts.map((v) => `[${v.method} ${v.verdict}] ${v.detail.trim()}`).join('\n');
  return { verdict, detail };
}

async function mapBounded<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

export async function runBacktest(options: BacktestOptions): Promise<BacktestResult> {
  const { db } = options;
  const item = await db.rubricItem.findUniqueOrThrow({ where: { id: options.itemId } });
  const states = [...(options.states ?? DEFAULT_BACKTEST_STATES)];
  const list = await targets(db, item, states);
  options.progress?.(`backtesting ${item.key}@${item.version} over ${list.length} generation(s) (${states.join(', ')})`);
  const outcomes = await mapBounded(list, options.concurrency ?? BACKTEST_CONCURRENCY, async (target) => {
    const outcome = await judgeOne(options, item, target);
    options.progress?.(`  ${target.versionId.slice(0, 12)}: ${outcome.verdict}`);
    return { ...target, ...outcome };
  });
  const findings = await db.$transaction(async (tx) => {
    await tx.backtestFinding.deleteMany({ where: { rubricItemId: item.id, sentToReview: false } });
    return Promise.all(
      outcomes.map((o) =>
        tx.backtestFinding.create({
          data: { rubricItemId: item.id, generationId: o.generationId, versionId: o.versionId, verdict: o.verdict, detail: o.detail },
        }),
      ),
    );
  });
  return { item, states, findings };
}

/** The generations the missed issues this item (any version of its key) came from were filed on. */
export async function backtestOrigins(db: Db, item: Pick<RubricItem, 'key'>): Promise<BacktestOrigin[]> {
  const versions = await db.rubricItem.findMany({ where: { key: item.key }, select: { id: true } });
  const issues = await db.missedIssue.findMany({
    where: { rubricItemId: { in: versions.map((v) => v.id) } },
    orderBy: { createdAt: 'asc' },
    select: { id: true, title: true, generation: { select: { id: true, number: true, lineage: { select: { name: true } } } } },
  });
  return issues.map((issue) => ({
    issueId: issue.id,
    issueTitle: issue.title,
    generationId: issue.generation.id,
    generationNumber: issue.generation.number,
    lineageName: issue.generation.lineage.name,
  }));
}

export interface FindingView extends BacktestFinding {
  generation: { id: string; number: number; state: string; revision: number; lineageId: string; lineageName: string } | null;
}

// Violations first, then errors, then the rest; each with its generation for the pages.
export async function listBacktestFindings(db: Db, itemId: string): Promise<FindingView[]> {
  const findings = await db.backtestFinding.findMany({ where: { rubricItemId: itemId }, orderBy: { createdAt: 'desc' } });
  const generations = new Map(
    (
      await db.generation.findMany({
        where: { id: { in: findings.map((f) => f.generationId) } },
        select: { id: true, number: true, state: true, revision: true, lineageId: true, lineage: { select: { name: true } } },
      })
    ).map(({ lineage, ...g }) => [g.id, { ...g, lineageName: lineage.name }]),
  );
  const rank: Record<string, number> = { failed: 0, error: 1, unjudged: 2, passed: 3 };
  return findings
    .map((f) => ({ ...f, generation: generations.get(f.generationId) ?? null }))
    .sort((a, b) => (rank[a.verdict] ?? 9) - (rank[b.verdict] ?? 9) || (a.generation?.number ?? 0) - (b.generation?.number ?? 0));
}
