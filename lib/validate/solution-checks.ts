// The counter-check and near-miss validators: one trial on the candidate's built image runs every
// earlier reference solution and every near miss (solution-check-plan.ts), and its result is split
// into one ValidatorRun per validator (solution-check-report.ts). A validator with nothing to run
// (no ancestor with a solution, no near miss in the bundle) records no row at all: "no near misses
// written" is said where runs are shown, never turned into a pass.
import type { TaskBundle, TaskConfig } from '../bundle/index.ts';
import { rethrowIfStopping, type BuildResult, type InteractiveAgent, type Sandbox, type ShellTerminal, type TrialResult } from '../sandbox/index.ts';
import { buildRecord, errorRecord, type RecordScope, type RunRecord } from './run-record.ts';
import { DATA_DIR, planSolutionChecks, runCommand, trialBundle, unwrapScript, type SolutionCheckInput, type SolutionCheckKind } from './solution-check-plan.ts';
import { buildReport, parseResultEnvelope, reportLog, reportProblems, reportVerdict, type AgentRunResult } from './solution-check-report.ts';
import { taskResources } from './trial-request.ts';

export const SOLUTION_CHECK_KINDS: SolutionCheckKind[] = ['counter-check', 'near-miss'];
// Each solution checked must score 0 on the candidate's tests.
const EXPECTED_REWARD = 0;
// Listing, packing and restoring a run's outputs, around the solution's and the test's own budgets.
const STASH_SLACK_SEC = 60;

export interface SolutionCheckOptions extends RecordScope {
  sandbox: Sandbox;
  bundle: TaskBundle;
  config: TaskConfig;
  build: BuildResult;
  input: SolutionCheckInput | null; // null: no lineage to compare with (near misses only)
  labels?: Record<string, string>;
  budgetFactor?: number;
  progress?: (message: string) => void;
}

// The trial's budgets: each solution gets the budget the task gives its reference solution (and the
// unwrap pass one more), each test run the verifier's, each with the slack to stash or restore.
// One solution's budget in the checks: a reference solution or near miss is a script, not an agent
// exploring, and runs in seconds; the task's whole agent budget per solution would make a trial of
// dozens of solutions wait hours on one that hangs. A retry with a larger budget multiplies it.
export const SOLUTION_RUN_SEC = 120;

export function solutionCheckBudgets(
  runCount: number,
  withUnwrap: boolean,
  config: { agent: Pick<TaskConfig['agent'], 'timeout_sec'>; verifier: Pick<TaskConfig['verifier'], 'timeout_sec'> },
  budgetFactor = 1,
) {
  const solutionSec = Math.ceil(Math.min(config.agent.timeout_sec, SOLUTION_RUN_SEC) * budgetFactor);
  const verifierSec = Math.ceil(config.verifier.timeout_sec * budgetFactor);
  const commandSec = solutionSec + STASH_SLACK_SEC;
  return {
    solutionSec,
    verifierSec,
    commandSec,
    agentPhaseSec: (runCount + (withUnwrap ? 1 : 0)) * commandSec,
    verifierPhaseSec: runCount * (verifierSec + STASH_SLACK_SEC),
  };
}

interface AgentRun extends AgentRunResult {
  output: string;
}

export async function runSolutionChecks(options: SolutionCheckOptions): Promise<RunRecord[]> {
  const progress = options.progress ?? (() => {});
  const plan = planSolutionChecks(options.bundle, options.input);
  const kinds = SOLUTION_CHECK_KINDS.filter((kind) => plan.runs.some((r) => r.kind === kind));
  if (kinds.length === 0) return [];
  const budgets = solutionCheckBudgets(plan.runs.length, plan.unwrapBefore !== null, options.config, options.budgetFactor);
  const { solutionSec, verifierSec, commandSec } = budgets;
  const agents: Record<string, AgentRun> = {};
  let unwrapLog = '';
  const agent: InteractiveAgent = {
    kind: 'interactive',
    copySolution: true,
    drive: async (terminal: ShellTerminal) => {
      for (const run of plan.runs) {
        if (run.id === plan.unwrapBefore) {
          const unwrap = await terminal.run(unwrapScript(DATA_DIR), { timeoutSec: commandSec });
          unwrapLog = `$ undo the data's wrappers and noise in place\n${unwrap.output}`;
        }
        const result = await terminal.run(runCommand(run, solutionSec), { timeoutSec: commandSec });
        // The last such line is the run command's own: a solution could print one too.
        const exit = [...result.output.matchAll(/^envolve: exit (\d+)$/gm)].at(-1);
        agents[run.id] = {
          exitCode: exit ? Number(exit[1]) : null,
          timedOut: result.timedOut || result.output.includes('ran out of its'),
          output: result.output,
        };
      }
    },
  };
  const labels = { ...options.labels, 'envolve.validator': kinds.join('+'), 'envolve.version': options.versionId };
  progress(`${kinds.join(' and ')}: running ${plan.runs.length} solutions in one container`);
  const started = Date.now();
  let trial: TrialResult;
  try {
    trial = await options.sandbox.runTrial({
      bundle: trialBundle(options.bundle, options.input, plan, verifierSec),
      imageId: options.build.imageId,
      agent,
      limits: taskResources(options.config).limits,
      agentTimeoutSec: budgets.agentPhaseSec,
      verifierTimeoutSec: budgets.verifierPhaseSec,
      labels,
    });
  } catch (err) {
    rethrowIfStopping(err);
    return kinds.map((kind) => ({
      ...errorRecord(options, kind, EXPECTED_REWARD, `sandbox failure: ${(err as Error).message}`),
      imageId: options.build.imageId,
    }));
  }
  const files = parseResultEnvelope(trial.ctrf);
  const checkedSteps = options.input?.changedSteps?.length ? options.input.changedSteps : null;
  const sections = verifierSections(trial.verifier?.log ?? '');
  return kinds.map((kind) => {
    const runs = plan.runs.filter((r) => r.kind === kind);
    const report = buildReport(kind, plan.runs, files ?? {}, agents, checkedSteps);
    const trialProblem = trialFailure(trial, files !== null);
    const verdict = trialProblem ? 'error' : reportVerdict(report);
    const rewards = report.runs.map((r) => r.reward).filter((r): r is number => r !== null);
    // In the order they ran; the unwrap pass just before the first run on unwrapped data.
    const agentLog = runs.map((r) => `${r.id === plan.unwrapBefore ? `${unwrapLog}\n` : ''}$ ${r.label}\n${agents[r.id]?.output ?? '(not run)\n'}`).join('\n');
    const rawVerifier = runs.map((r) => sections.get(r.id) ?? '').join('');
    const record: RunRecord = {
      ...errorRecord(options, kind, EXPECTED_REWARD, trialProblem ?? reportProblems(report) ?? ''),
      verdict,
      status: trial.status,
      reward: rewards.length > 0 ? Math.max(...rewards) : null,
      rewardDetail: JSON.stringify(report),
      imageId: trial.imageId,
      sandboxRuntime: trial.runtime,
      agentExitCode: trial.agent.exitCode,
      verifierExitCode: trial.verifier?.exitCode ?? null,
      agentLog,
      verifierLog: `${reportLog(report)}\n\n${rawVerifier}`,
      containment: JSON.stringify(trial.containment),
      build: JSON.stringify(buildRecord(options.build)),
      timedOut: trial.timedOut,
      buildDurationMs: options.build.cached ? 0 : options.build.durationMs,
      agentDurationMs: trial.agent.durationMs,
      verifierDurationMs: trial.verifier?.durationMs ?? 0,
      totalDurationMs: Date.now() - started,
    };
    if (record.error === '') record.error = null;
    progress(`${kind}: ${verdict} (${report.caught}/${report.total} caught)`);
    return record;
  });
}

// Why the trial as a whole says nothing, when it does not.
function trialFailure(trial: TrialResult, hasResults: boolean): string | null {
  if (trial.status === 'error') return `sandbox failure: ${trial.error ?? 'the sandbox failed'}`;
  if (trial.status === 'timed-out') return `the ${trial.timedOutPhase ?? 'trial'} phase ran out of time`;
  if (!hasResults) return `the verifier wrapper returned no results (${trial.error ?? trial.status})`;
  return null;
}

// The verifier wrapper marks where each run's test output starts.
export function verifierSections(log: string): Map<string, string> {
  const sections = new Map<string, string>();
  const marker = /^== envolve run (r\d+) ==$/gm;
  const starts = [...log.matchAll(marker)];
  starts.forEach((m, i) => sections.set(m[1]!, log.slice(m.index, starts[i + 1]?.index ?? log.length)));
  return sections;
}
