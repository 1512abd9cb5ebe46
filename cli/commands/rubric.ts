// `envolve rubric list|backtest` and `envolve missed-issues list`: thin over lib/missed-issues
// and lib/rubric/backtest.ts. The command line acts as the operator (admin) for the audit log.
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import type { Db } from '../../lib/db/index.ts';
import { versionSandbox } from '../../lib/evolution/index.ts';
import { auditDecision } from '../../lib/audit/index.ts';
import { listMissedIssues, missedIssueFilterSchema } from '../../lib/missed-issues/index.ts';
import { configuredJudge, listRubricCatalogue, DEFAULT_BACKTEST_STATES, listBacktestFindings, runBacktest } from '../../lib/rubric/index.ts';
import type { Actor } from '../../lib/auth/index.ts';
import { openSandbox, withDb } from '../context.ts';
import { emit, fail, progress, shortId, table, type OutputOptions } from '../output.ts';

type Opts = OutputOptions & Record<string, string | boolean | undefined>;

const operator = (): Actor => ({ id: null, email: `cli:${userInfo().username}`, role: 'admin' });

async function guard(opts: OutputOptions, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    fail(opts, err);
  }
}

export function registerRubricCommands(program: Command): void {
  const rubric = program.command('rubric').description('rubric items: versions, scope, activation and backtests');
  rubric
    .command('list')
    .description('every rubric key with its versions and the one in force')
    .option('--json', 'print one JSON document')
    .action((opts: Opts) =>
      guard(opts, () =>
        withDb(async (db) => {
          const keys = await listRubricCatalogue(db);
          emit(opts, { items: keys }, ({ items }) =>
            table([
              ['KEY', 'IN FORCE', 'VERSIONS', 'SOURCE', 'SCOPE', 'APPLIES TO', 'METHOD', 'VERDICTS'],
              ...items.map((k) => {
                const shown = k.inForce ?? k.versions[0]!;
                return [
                  k.key,
                  k.inForce ? `v${k.inForce.version}` : 'inactive',
                  String(k.versions.length),
                  k.source,
                  shown.scope === 'lineage' ? `lineage ${k.lineageName ?? shown.lineageId}` : 'global',
                  shown.appliesTo,
                  [shown.check ? 'check' : '', shown.builtinCheck ? 'builtin' : '', shown.question ? 'llm' : ''].filter(Boolean).join('+'),
                  `${k.verdictCount} (${k.judgedCount} judged)`,
                ];
              }),
            ]),
          );
        }),
      ),
    );
  rubric
    .command('backtest')
    .argument('<item>', 'a rubric item id, or a key (its newest version)')
    .description('run one item over past generations now, in the sandbox, and store what it finds')
    .option('--states <list>', 'generation states to run over, comma-separated', DEFAULT_BACKTEST_STATES.join(','))
    .option('--json', 'print one JSON document')
    .action((ref: string, opts: Opts) => guard(opts, () => withDb((db) => backtestCommand(db, ref, opts))));

  const issues = program.command('missed-issues').description('problems reviewers found that the validators missed');
  issues
    .command('list')
    .description('missed issues, open ones first')
    .option('--state <state>', 'open | converted | dismissed')
    .option('--severity <severity>', 'low | medium | high | critical')
    .option('--json', 'print one JSON document')
    .action((opts: Opts) =>
      guard(opts, () =>
        withDb(async (db) => {
          const filter = missedIssueFilterSchema.parse({ state: opts.state, severity: opts.severity });
          const rows = await listMissedIssues(db, filter);
          emit(opts, { missedIssues: rows }, ({ missedIssues }) =>
            table([
              ['ID', 'STATE', 'SEVERITY', 'VALIDATOR', 'GENERATION', 'ITEM', 'TITLE'],
              ...missedIssues.map((i) => [
                i.id,
                i.state,
                i.severity,
                i.validatorKind,
                `${i.generation.lineageName} #${i.generation.number}`,
                i.rubricItem ? `${i.rubricItem.key}@${i.rubricItem.version}` : '–',
                i.title,
              ]),
            ]),
          );
        }),
      ),
    );
}

async function backtestCommand(db: Db, ref: string, opts: Opts): Promise<void> {
  const item =
    (await db.rubricItem.findUnique({ where: { id: ref } })) ?? (await db.rubricItem.findFirst({ where: { key: ref }, orderBy: { version: 'desc' } }));
  if (!item) throw new Error(`no rubric item has the id or key '${ref}'`);
  const states = String(opts.states)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const sandbox = await openSandbox();
  const result = await runBacktest({
    db,
    sandboxOf: (versionId) => versionSandbox(db, sandbox, versionId),
    judge: configuredJudge(),
    itemId: item.id,
    states,
    progress,
  });
  await auditDecision(db, operator(), 'rubric.backtest', { type: 'rubric-item', id: item.id }, null, { states, findings: result.findings.length });
  const findings = await listBacktestFindings(db, item.id);
  const report = {
    item: { id: item.id, key: item.key, version: item.version, active: item.active },
    states,
    findings,
    violations: findings.filter((f) => f.verdict === 'failed'),
  };
  emit(opts, report, (r) =>
    [
      `${r.item.key}@${r.item.version}: ${r.violations.length} violation(s) in ${r.findings.length} generation(s)`,
      table([
        ['VERDICT', 'GENERATION', 'STATE', 'VERSION', 'SENT BACK', 'DETAIL'],
        ...r.findings.map((f) => [
          f.verdict,
          f.generation ? `${f.generation.lineageName} #${f.generation.number}` : f.generationId,
          f.generation?.state ?? '–',
          shortId(f.versionId),
          f.sentToReview ? 'yes' : '',
          (f.detail.split('\n')[0] ?? '').slice(0, 80),
        ]),
      ]),
    ].join('\n'),
  );
}
