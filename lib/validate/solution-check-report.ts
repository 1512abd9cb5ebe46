// Reads what the counter-check and near-miss trial returned (solution-check-plan.ts) and judges
// it. A run is "caught" when the candidate's tests reject it where they must: an ancestor's
// solution must fail every step the candidate changed or added (a solution that still answers one
// means the step asks nothing new); a near miss must score 0 and, where the tests name its step,
// fail that step (a near miss failing only elsewhere proves nothing about its mistake).
import { z } from 'zod';
import { parseRewardJson, parseRewardTxt } from '../sandbox/index.ts';
import { RESULTS_KEY, type CheckRun, type DataPass, type SolutionCheckKind } from './solution-check-plan.ts';

export interface StepResult {
  stepId: string;
  status: string; // the CTRF status: passed, failed, ...
  message?: string; // what the solution wrote against what was expected, when the test said
}

export type RunOutcome = 'caught' | 'let-through' | 'error';

export interface ReportRun {
  id: string;
  label: string;
  pass: DataPass;
  ancestor?: CheckRun['ancestor'];
  nearMiss?: CheckRun['nearMiss'];
  reward: number | null;
  steps: StepResult[];
  outcome: RunOutcome;
  why: string; // one line: why caught, let through or not judged
  agentExitCode: number | null;
  agentTimedOut: boolean;
}

// Stored as the ValidatorRun's rewardDetail: the per-step log the review page and the CLI show.
export interface SolutionCheckReport {
  kind: SolutionCheckKind;
  checkedSteps: string[] | null; // counter-check: the changed or added steps; null: the whole task
  caught: number; // runs the tests caught (near misses rejected: the mutation score's numerator)
  total: number;
  runs: ReportRun[];
}

export interface AgentRunResult {
  exitCode: number | null;
  timedOut: boolean;
}

// One run's files as the verifier wrapper packed them.
export interface RunFiles {
  exit?: string;
  'reward.txt'?: string;
  'reward.json'?: string;
  'ctrf.json'?: string;
}

const runFilesSchema = z.object({
  exit: z.string().optional(),
  'reward.txt': z.string().optional(),
  'reward.json': z.string().optional(),
  'ctrf.json': z.string().optional(),
});
const envelopeSchema = z.object({ [RESULTS_KEY]: z.record(z.string(), runFilesSchema) });

/** The per-run files of the trial's result file, decoded; null when it is not the wrapper's. */
export function parseResultEnvelope(ctrf: unknown): Record<string, RunFiles> | null {
  const parsed = envelopeSchema.safeParse(ctrf);
  if (!parsed.success) return null;
  const decode = (b64: string | undefined) => (b64 === undefined ? undefined : Buffer.from(b64, 'base64').toString('utf8'));
  return Object.fromEntries(
    Object.entries(parsed.data[RESULTS_KEY]).map(([id, files]) => [
      id,
      Object.fromEntries(Object.entries(files).map(([name, b64]) => [name, decode(b64)])) as RunFiles,
    ]),
  );
}

const ctrfSchema = z.object({
  results: z.object({
    tests: z.array(z.object({ name: z.string(), status: z.string(), message: z.unknown().optional() })),
  }),
});
const STEP_TEST = /^step (\S+)$/;

export function stepResults(ctrfText: string | undefined): StepResult[] {
  if (ctrfText === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(ctrfText);
  } catch {
    return [];
  }
  const parsed = ctrfSchema.safeParse(json);
  if (!parsed.success) return [];
  return parsed.data.results.tests.flatMap((t) => {
    const match = STEP_TEST.exec(t.name);
    const message = typeof t.message === 'string' && t.message !== '' ? { message: t.message } : {};
    return match ? [{ stepId: match[1]!, status: t.status, ...message }] : [];
  });
}

function rewardOf(files: RunFiles | undefined): { reward: number | null; problem: string | null } {
  if (!files) return { reward: null, problem: 'the verifier returned nothing for this run' };
  const parsed =
    files['reward.txt'] !== undefined ? parseRewardTxt(files['reward.txt']) : files['reward.json'] !== undefined ? parseRewardJson(files['reward.json']) : null;
  if (!parsed) {
    const exit = files.exit?.trim();
    return { reward: null, problem: exit === undefined ? 'the solution left nothing to judge (no stash)' : `the tests wrote no reward (exit ${exit})` };
  }
  return parsed.ok ? { reward: parsed.reward, problem: null } : { reward: null, problem: parsed.problem };
}

const failedSteps = (steps: StepResult[]) =>
  steps
    .filter((s) => s.status !== 'passed')
    .map((s) => `step ${s.stepId} ${s.status}${s.message ? ` (${s.message})` : ''}`)
    .join('; ');

function judgeAncestor(steps: StepResult[], reward: number, checkedSteps: string[] | null): { outcome: RunOutcome; why: string } {
  if (checkedSteps === null) {
    return reward === 1
      ? { outcome: 'let-through', why: 'scores 1 on the candidate: it answers the whole task' }
      : { outcome: 'caught', why: `scores ${reward}: ${failedSteps(steps) || 'the tests reject it'}` };
  }
  const answered: string[] = [];
  const unnamed: string[] = [];
  for (const id of checkedSteps) {
    const step = steps.find((s) => s.stepId === id);
    if (step === undefined) unnamed.push(id);
    if (step?.status === 'passed') answered.push(id);
  }
  // Tests that name no such step are judged on the whole reward for it.
  if (unnamed.length > 0 && reward === 1) answered.push(...unnamed);
  const fallback = unnamed.length > 0 ? ` (the tests name no ${unnamed.map((s) => `step ${s}`).join(', ')}: judged on the whole reward)` : '';
  if (answered.length > 0) {
    return { outcome: 'let-through', why: `answers ${answered.map((s) => `step ${s}`).join(', ')}, which the candidate changed or added${fallback}` };
  }
  const checked = steps.filter((s) => checkedSteps.includes(s.stepId));
  return { outcome: 'caught', why: `fails every changed or added step: ${failedSteps(checked) || `reward ${reward}`}${fallback}` };
}

function judgeNearMiss(steps: StepResult[], reward: number, stepId: string): { outcome: RunOutcome; why: string } {
  const own = steps.find((s) => s.stepId === stepId);
  if (reward !== 0)
    return { outcome: 'let-through', why: `scores ${reward}, not 0: the tests accept this mistake${own ? ` (step ${stepId} ${own.status})` : ''}` };
  if (own?.status === 'passed') {
    return {
      outcome: 'let-through',
      why: `scores 0, but step ${stepId} passed: the mistake did not reach its test (${failedSteps(steps) || 'no step failed'})`,
    };
  }
  if (own === undefined) return { outcome: 'caught', why: `scores 0 (the tests name no step ${stepId})` };
  return { outcome: 'caught', why: `scores 0; step ${stepId} ${own.status}${own.message ? `: ${own.message}` : ''}` };
}

export function judgeRun(run: CheckRun, files: RunFiles | undefined, agent: AgentRunResult | undefined, checkedSteps: string[] | null): ReportRun {
  const { reward, problem } = rewardOf(files);
  const steps = stepResults(files?.['ctrf.json']);
  const base = {
    id: run.id,
    label: run.label,
    pass: run.pass,
    ...(run.ancestor ? { ancestor: run.ancestor } : {}),
    ...(run.nearMiss ? { nearMiss: run.nearMiss } : {}),
    reward,
    steps,
    agentExitCode: agent?.exitCode ?? null,
    agentTimedOut: agent?.timedOut ?? false,
  };
  if (reward === null) return { ...base, outcome: 'error', why: problem ?? 'no reward' };
  const judged = run.kind === 'near-miss' ? judgeNearMiss(steps, reward, run.nearMiss!.stepId) : judgeAncestor(steps, reward, checkedSteps);
  return { ...base, ...judged };
}

export function buildReport(
  kind: SolutionCheckKind,
  runs: CheckRun[],
  files: Record<string, RunFiles>,
  agents: Record<string, AgentRunResult>,
  checkedSteps: string[] | null,
): SolutionCheckReport {
  const judged = runs.filter((r) => r.kind === kind).map((r) => judgeRun(r, files[r.id], agents[r.id], checkedSteps));
  return {
    kind,
    checkedSteps: kind === 'counter-check' ? checkedSteps : null,
    caught: judged.filter((r) => r.outcome === 'caught').length,
    total: judged.length,
    runs: judged,
  };
}

export function reportVerdict(report: SolutionCheckReport): 'passed' | 'failed' | 'error' {
  if (report.runs.some((r) => r.outcome === 'let-through')) return 'failed';
  if (report.runs.some((r) => r.outcome === 'error')) return 'error';
  return 'passed';
}

// The report in words: the ValidatorRun's error (and so the modify loop's feedback) for the runs
// that were let through or not judged.
export function reportProblems(report: SolutionCheckReport): string | null {
  const bad = report.runs.filter((r) => r.outcome !== 'caught');
  if (bad.length === 0) return null;
  const head =
    report.kind === 'counter-check'
      ? `${report.runs.filter((r) => r.outcome === 'let-through').length} of ${report.total} runs of earlier reference solutions answer what the candidate changed or added`
      : `${report.total - report.caught} of ${report.total} near misses not rejected (mutation score ${report.caught}/${report.total})`;
  return [head, ...bad.map((r) => `${r.label}: ${r.outcome === 'error' ? `not judged: ${r.why}` : r.why}`)].join('\n');
}

// One line per run, the per-step log kept in the ValidatorRun's verifierLog ahead of the raw output.
export function reportLog(report: SolutionCheckReport): string {
  const scope = report.kind === 'counter-check' ? `checked steps: ${report.checkedSteps?.join(', ') ?? 'the whole task'}\n` : '';
  return (
    scope +
    report.runs
      .map((r) => {
        const steps = r.steps.map((s) => `step ${s.stepId} ${s.status}`).join(', ');
        return `${r.id} ${r.label}: reward ${r.reward ?? '–'}${steps ? `; ${steps}` : ''} → ${r.outcome}: ${r.why}`;
      })
      .join('\n')
  );
}

const storedReportSchema = z.object({
  kind: z.enum(['counter-check', 'near-miss']),
  checkedSteps: z.array(z.string()).nullable(),
  caught: z.number(),
  total: z.number(),
  runs: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      pass: z.enum(['as-is', 'unwrapped']),
      ancestor: z.object({ distance: z.number(), versionId: z.string(), label: z.string() }).optional(),
      nearMiss: z.object({ file: z.string(), stepId: z.string(), mistake: z.string() }).optional(),
      reward: z.number().nullable(),
      steps: z.array(z.object({ stepId: z.string(), status: z.string(), message: z.string().optional() })),
      outcome: z.enum(['caught', 'let-through', 'error']),
      why: z.string(),
      agentExitCode: z.number().nullable(),
      agentTimedOut: z.boolean(),
    }),
  ),
});

/** A stored counter-check or near-miss report (a ValidatorRun's rewardDetail); null when it is none. */
export function parseSolutionCheckReport(rewardDetail: string | null): SolutionCheckReport | null {
  if (rewardDetail === null) return null;
  try {
    const parsed = storedReportSchema.safeParse(JSON.parse(rewardDetail));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
