// From check results, built-in checks and judge answers to rubric verdicts, and from those to the
// run's verdict. An LLM item nobody judged is 'unjudged' — never 'passed' — and does not fail the
// run; the run's 'passed' is a gate over what was judged, and is never shown without the counts
// of what was (judgement.ts).
import type { TaskBundle } from '../bundle/index.ts';
import type { CheckResult } from '../sandbox/index.ts';
import type { JudgeVerdict } from '../synth/index.ts';
import { BUILTIN_CHECKS } from './offline/registry.ts';

// executable: a shell check in a sandbox; builtin: Envolve's own code, in-process; llm: the judge.
export type RubricMethod = 'executable' | 'builtin' | 'llm';
export type RubricVerdictValue = 'passed' | 'failed' | 'unjudged' | 'error';
export type RubricRunVerdict = 'passed' | 'failed' | 'error';

export interface ItemVerdict {
  method: RubricMethod;
  verdict: RubricVerdictValue;
  detail: string;
  durationMs: number;
}

// bash's "cannot execute" and "command not found": the check broke, the task did not fail it.
const BROKEN_CHECK_EXIT_CODES = new Set([126, 127]);

export function checkVerdict(result: CheckResult): ItemVerdict {
  const base = { method: 'executable' as const, durationMs: result.durationMs };
  if (result.error) return { ...base, verdict: 'error', detail: `the check could not run: ${result.error}` };
  const retried = result.retriedAfterSec === undefined ? '' : `\n[the first run overran its ${result.retriedAfterSec} s budget; this is its one retry]`;
  if (result.timedOut) {
    const why = `[the check ran out of time twice (${result.retriedAfterSec ?? '?'} s, then a larger budget): a slow machine or a slow check, not a verdict on the environment]`;
    return { ...base, verdict: 'error', detail: `${result.output}\n${why}`.trim() };
  }
  const output = result.output.trimEnd();
  if (result.exitCode === 0) return { ...base, verdict: 'passed', detail: `${output}${retried}`.trim() };
  if (result.exitCode === null || BROKEN_CHECK_EXIT_CODES.has(result.exitCode)) {
    return { ...base, verdict: 'error', detail: `${output}\n[the check itself failed, exit code ${result.exitCode}]${retried}`.trim() };
  }
  return { ...base, verdict: 'failed', detail: `${output}${retried}`.trim() };
}

export function judgeVerdict(answer: JudgeVerdict, durationMs: number): ItemVerdict {
  return { method: 'llm', verdict: answer.verdict, detail: answer.explanation, durationMs };
}

export async function builtinVerdict(name: string, bundle: TaskBundle): Promise<ItemVerdict> {
  const check = BUILTIN_CHECKS[name];
  if (!check) {
    const known = Object.keys(BUILTIN_CHECKS).join(', ');
    return { method: 'builtin', verdict: 'error', detail: `this Envolve has no built-in check ${name} (it has ${known})`, durationMs: 0 };
  }
  const started = Date.now();
  try {
    const result = await check(bundle);
    return { method: 'builtin', verdict: result.passed ? 'passed' : 'failed', detail: result.detail, durationMs: Date.now() - started };
  } catch (err) {
    const detail = `the built-in check ${name} broke: ${err instanceof Error ? err.message : String(err)}`;
    return { method: 'builtin', verdict: 'error', detail, durationMs: Date.now() - started };
  }
}

export function runVerdict(verdicts: ReadonlyArray<Pick<ItemVerdict, 'verdict'>>): RubricRunVerdict {
  if (verdicts.some((v) => v.verdict === 'failed')) return 'failed';
  if (verdicts.some((v) => v.verdict === 'error')) return 'error';
  return 'passed';
}
