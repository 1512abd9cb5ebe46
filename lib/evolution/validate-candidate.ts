// The validators of Loop 2, in parallel: oracle and invalid-test (in their own containers on the
// candidate's image), counter-check and near-miss (together in one more container on it: no
// earlier reference solution may answer what the candidate changed, every near miss must score
// 0) and the rubric (executable checks and the LLM judge).
import type { ValidatorRun } from '../db/index.ts';
import type { TaskBundle } from '../bundle/index.ts';
import { activeRubric, runRubricValidator } from '../rubric/index.ts';
import { DEFAULT_CHECK_TIMEOUT_SEC } from '../sandbox/index.ts';
import { BUILD_FAILED, REFUSED, SOLUTION_CHECK_KINDS, validateEnvironment } from '../validate/index.ts';
import { solutionCheckInput } from './ancestry.ts';
import type { EvolutionContext } from './context.ts';

export interface CandidateValidation {
  passed: boolean;
  runs: ValidatorRun[];
  feedback: string[]; // what failed, in words the modifier can act on
  // Set when nothing failed on the environment's merits but a validator reached no verdict (a
  // rubric check out of time even on its retry, a sandbox failure under the rubric, a verifier out
  // of time): the same candidate would meet the same machine, so a person looks at it instead.
  inconclusive: string | null;
  // The image did not build: the error with the build log's tail (the same for both validators).
  buildFailed: string | null;
}

const LOG_TAIL = 1500;

export async function validateCandidate(
  ctx: EvolutionContext,
  candidate: { versionId: string; bundle: TaskBundle; attemptId: string; lineageId: string; parentVersionId: string },
): Promise<CandidateValidation> {
  const items = await activeRubric(ctx.db, { lineageId: candidate.lineageId, appliesTo: 'environment' });
  const budgetFactor = ctx.budgetFactor ?? 1;
  const checkTimeoutSec = budgetFactor === 1 ? ctx.rubricCheckTimeoutSec : (ctx.rubricCheckTimeoutSec ?? DEFAULT_CHECK_TIMEOUT_SEC) * budgetFactor;
  const solutionChecks = await solutionCheckInput(ctx.db, candidate.lineageId, candidate.parentVersionId, candidate.versionId);
  const [pair, rubric] = await Promise.all([
    validateEnvironment({
      db: ctx.db,
      sandbox: ctx.sandbox,
      versionId: candidate.versionId,
      attemptId: candidate.attemptId,
      labels: ctx.labels,
      budgetFactor,
      solutionChecks,
    }),
    runRubricValidator({
      db: ctx.db,
      sandbox: ctx.sandbox,
      synthesiser: ctx.synthesiser,
      versionId: candidate.versionId,
      bundle: candidate.bundle,
      items,
      attemptId: candidate.attemptId,
      checkTimeoutSec,
    }),
  ]);
  const runs = [...pair, rubric];
  const passed = runs.every((r) => r.verdict === 'passed');
  const feedback = await feedbackFrom(ctx, runs);
  // Neither an image that does not build nor a task Envolve refuses to run gets better on a retry.
  const buildFailed = pair.find((r) => r.status === BUILD_FAILED || r.status === REFUSED)?.error ?? null;
  return { passed, runs, feedback, inconclusive: passed || buildFailed ? null : inconclusiveReason(runs, feedback), buildFailed };
}

// A run without a verdict about the environment: the rubric erred with no item failing, or a
// trial's verifier ran out of time (a nop agent or a verifier that times out says nothing).
function reachedNoVerdict(run: ValidatorRun): boolean {
  if (run.kind === 'rubric') return run.verdict === 'error';
  return run.verdict === 'error' && run.status === 'timed-out';
}

export function inconclusiveReason(runs: ValidatorRun[], feedback: string[]): string | null {
  const notPassed = runs.filter((r) => r.verdict !== 'passed');
  if (!notPassed.every(reachedNoVerdict)) return null;
  return `no validator found a fault, but ${notPassed.map((r) => r.kind).join(' and ')} reached no verdict: ${feedback.join('; ')}`;
}

async function feedbackFrom(ctx: EvolutionContext, runs: ValidatorRun[]): Promise<string[]> {
  const feedback: string[] = [];
  for (const run of runs.filter((r) => r.verdict !== 'passed')) {
    // Their error is already the per-run account: which ancestor or near miss, which step, what it wrote.
    if ((SOLUTION_CHECK_KINDS as string[]).includes(run.kind)) {
      feedback.push(`${run.kind} ${run.verdict}: ${run.error ?? ''}`);
      continue;
    }
    if (run.kind !== 'rubric') {
      const tail = run.verifierLog.slice(-LOG_TAIL).trim();
      feedback.push(`${run.kind} ${run.verdict}: ${run.error ?? ''}${tail ? `\nverifier output:\n${tail}` : ''}`);
      continue;
    }
    const failed = await ctx.db.rubricVerdict.findMany({
      where: { validatorRunId: run.id, verdict: { in: ['failed', 'error'] } },
      include: { item: { select: { key: true, title: true } } },
    });
    for (const v of failed) feedback.push(`rubric ${v.item.key} ${v.verdict} (${v.item.title}): ${v.detail.slice(-LOG_TAIL)}`);
  }
  return feedback;
}
