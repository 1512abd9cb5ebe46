// The rubric validator of Loop 2: every executable item's check runs against the
// candidate's files in one sandbox container, the built-in checks run in-process, and the LLM
// judge answers the questions; one ValidatorRun (kind 'rubric') is stored with one RubricVerdict
// per (item, method), all stamped with the rubric version label of the item set that judged.
// The run's verdict is a gate: 'passed' when no judged item failed or erred, unjudged questions
// included, and it is always shown with what was judged (judgement.ts), never as a plain pass.
import type { Db, RubricItem, RubricVerdict, ValidatorRun } from '../db/index.ts';
import type { TaskBundle } from '../bundle/index.ts';
import { rethrowIfStopping, type ChecksResult, type Sandbox } from '../sandbox/index.ts';
import type { Synthesiser } from '../synth/index.ts';
import type { RunRecord } from '../validate/index.ts';
import { builtinVerdict, checkVerdict, judgeVerdict, runVerdict, type ItemVerdict } from './verdicts.ts';
import { rubricVersionLabel, toItemView } from './view.ts';

export interface RubricValidatorOptions {
  db: Db;
  sandbox: Sandbox;
  synthesiser: Synthesiser | null; // null: no LLM configured, every question stays unjudged
  versionId: string;
  bundle: TaskBundle; // the files of versionId
  items: RubricItem[]; // normally activeRubric(db, { lineageId, appliesTo: 'environment' })
  attemptId?: string;
  jobId?: string; // makes the run idempotent across retries of the same job
  labels?: Record<string, string>;
  checkTimeoutSec?: number; // each check's first budget; an overrun is retried once with a larger one
}

export type RubricValidatorRun = ValidatorRun & { rubricVerdicts: RubricVerdict[] };

interface JudgedItem extends ItemVerdict {
  item: RubricItem;
}

interface ExecutableOutcome {
  imageId: string | null;
  runtime: string | null;
  verdicts: JudgedItem[];
  sandboxFailed: boolean;
  timedOut: boolean;
}

async function runExecutableItems(options: RubricValidatorOptions, items: RubricItem[]): Promise<ExecutableOutcome> {
  const withCheck = items.filter((item): item is RubricItem & { check: string } => item.check !== null);
  if (withCheck.length === 0) return { imageId: null, runtime: null, verdicts: [], sandboxFailed: false, timedOut: false };
  let checks: ChecksResult;
  try {
    checks = await options.sandbox.runChecks({
      files: options.bundle.files,
      checks: withCheck.map((item) => ({ id: item.id, script: item.check })),
      timeoutSec: options.checkTimeoutSec,
      labels: { ...options.labels, 'envolve.validator': 'rubric', 'envolve.version': options.versionId },
    });
  } catch (err) {
    rethrowIfStopping(err);
    const detail = `sandbox failure: ${err instanceof Error ? err.message : String(err)}`;
    const verdicts = withCheck.map((item): JudgedItem => ({ item, method: 'executable', verdict: 'error', detail, durationMs: 0 }));
    return { imageId: null, runtime: null, verdicts, sandboxFailed: true, timedOut: false };
  }
  const byId = new Map(checks.results.map((r) => [r.id, r]));
  const verdicts = withCheck.map((item): JudgedItem => {
    const result = byId.get(item.id);
    if (!result) return { item, method: 'executable', verdict: 'error', detail: 'the sandbox returned no result for this check', durationMs: 0 };
    return { item, ...checkVerdict(result) };
  });
  return { imageId: checks.imageId, runtime: checks.runtime, verdicts, sandboxFailed: false, timedOut: checks.results.some((r) => r.timedOut) };
}

async function judgeItem(options: RubricValidatorOptions, item: RubricItem): Promise<JudgedItem> {
  if (!options.synthesiser) return { item, method: 'llm', verdict: 'unjudged', detail: 'no LLM is configured', durationMs: 0 };
  const started = Date.now();
  try {
    const answer = await options.synthesiser.judge({ bundle: options.bundle, item: toItemView(item) });
    return { item, ...judgeVerdict(answer, Date.now() - started) };
  } catch (err) {
    const detail = `the judge failed: ${err instanceof Error ? err.message : String(err)}`;
    return { item, method: 'llm', verdict: 'error', detail, durationMs: Date.now() - started };
  }
}

function runBuiltinItems(options: RubricValidatorOptions, items: RubricItem[]): Promise<JudgedItem[]> {
  const withBuiltin = items.filter((item): item is RubricItem & { builtinCheck: string } => item.builtinCheck !== null);
  return Promise.all(withBuiltin.map(async (item) => ({ item, ...(await builtinVerdict(item.builtinCheck, options.bundle)) })));
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

// One line per verdict, for the run's log view.
function compactLog(verdicts: JudgedItem[]): string {
  return verdicts
    .map((v) => `${v.verdict.padEnd(8)} ${v.method.padEnd(10)} ${v.item.key}@${v.item.version} (${v.durationMs} ms) ${firstLine(v.detail)}`)
    .join('\n');
}

function errorSummary(verdicts: JudgedItem[]): string | null {
  const bad = verdicts.filter((v) => v.verdict === 'failed' || v.verdict === 'error');
  if (bad.length === 0) return null;
  return bad.map((v) => `${v.item.key} ${v.verdict} (${v.method}): ${firstLine(v.detail)}`).join('\n');
}

export async function runRubricValidator(options: RubricValidatorOptions): Promise<RubricValidatorRun> {
  const { db, jobId } = options;
  if (jobId) {
    const done = await db.validatorRun.findFirst({ where: { jobId, kind: 'rubric' }, include: { rubricVerdicts: true } });
    if (done) return done;
  }
  const started = Date.now();
  const items = options.items.filter((item) => item.appliesTo !== 'plan');
  const [executable, builtin, judged] = await Promise.all([
    runExecutableItems(options, items),
    runBuiltinItems(options, items),
    Promise.all(items.filter((item) => item.question !== null).map((item) => judgeItem(options, item))),
  ]);
  // Item order; for an item with several methods, the executable verdict, then the built-in, then the LLM's.
  const verdicts = items.flatMap((item) => [...executable.verdicts, ...builtin, ...judged].filter((v) => v.item.id === item.id));
  const checksMs = executable.verdicts.reduce((sum, v) => sum + v.durationMs, 0);
  const record: RunRecord = {
    versionId: options.versionId,
    kind: 'rubric',
    verdict: runVerdict(verdicts),
    status: executable.sandboxFailed ? 'error' : executable.timedOut ? 'timed-out' : 'completed',
    reward: null, // a rubric run judges files, it runs no trial and earns no reward
    rewardDetail: null,
    expectedReward: 0,
    imageId: executable.imageId,
    sandboxRuntime: executable.runtime,
    agentExitCode: null,
    verifierExitCode: null,
    agentLog: compactLog(verdicts),
    verifierLog: '',
    error: errorSummary(verdicts),
    containment: executable.imageId ? JSON.stringify({ networkMode: 'none', user: 'agent', bundle: 'read-only /bundle' }) : null,
    build: null,
    timedOut: executable.timedOut,
    buildDurationMs: 0,
    agentDurationMs: 0,
    verifierDurationMs: checksMs,
    totalDurationMs: Date.now() - started,
    jobId: jobId ?? null,
    attemptId: options.attemptId ?? null,
    rubricVersion: rubricVersionLabel(items),
  };
  return db.validatorRun.create({
    data: {
      ...record,
      rubricVerdicts: { create: verdicts.map((v) => ({ itemId: v.item.id, method: v.method, verdict: v.verdict, detail: v.detail })) },
    },
    include: { rubricVerdicts: true },
  });
}
