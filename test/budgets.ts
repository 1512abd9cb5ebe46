// Test time limits, derived from the budgets the code under test waits on, never a guess at how fast a
// machine is. A test waits on image builds, trials and rubric checks, each bounded by a budget the product
// sets: the task's task.toml (or its defaults), the rubric check budget and its one larger retry, the
// loops' rounds, the wait for another process's base-image build, SQLite's busy timeout. A test's limit
// is the sum of what it waits on one after the other, times SAFETY_FACTOR for what no budget covers
// (container start-up and removal, image layers, the test's own database work). On a loaded machine the
// product's budgets are what stretch first, so a limit made of them stretches with them.
import { BUSY_TIMEOUT_MS } from '../lib/db/sqlite.ts';
import type { TaskBundle } from '../lib/bundle/bundle.ts';
import { parseTaskConfig } from '../lib/bundle/task-config.ts';
import { loopConfigSchema, type LoopConfig } from '../lib/evolution/config.ts';
import { BUILTIN_RUBRIC } from '../lib/rubric/builtin-items.ts';
import { BASE_IMAGE_LOCK_WAIT_MS } from '../lib/sandbox/base-image.ts';
import { checksWorstCaseSec, DEFAULT_CHECK_TIMEOUT_SEC } from '../lib/sandbox/run-checks.ts';
import { proceduralBudgets } from '../lib/synth/procedural/render.ts';
import { solutionCheckBudgets } from '../lib/validate/solution-checks.ts';

export const SAFETY_FACTOR = 1.5;

// Node's timers hold at most this; a longer delay fires at once, which would fail a test for nothing.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

// The limit for waiting on these budgets one after the other.
export function limitMs(...budgetsMs: number[]): number {
  const limit = Math.ceil(budgetsMs.reduce((sum, ms) => sum + ms, 0) * SAFETY_FACTOR);
  if (limit > LONGEST_TIMER_MS) throw new Error(`a test limit of ${limit} ms is longer than a timer can wait (${LONGEST_TIMER_MS} ms)`);
  return limit;
}

export interface TaskBudgets {
  buildSec: number;
  agentSec: number;
  verifierSec: number;
}

// The budgets a task.toml gives (a missing key, or a missing file, takes the product's default).
export function taskTomlBudgets(raw: string): TaskBudgets {
  const parsed = parseTaskConfig(raw);
  if (!parsed.ok) throw new Error(`task.toml: ${parsed.error}`);
  const { environment, agent, verifier } = parsed.config;
  return { buildSec: environment.build_timeout_sec, agentSec: agent.timeout_sec, verifierSec: verifier.timeout_sec };
}

export function taskBudgets(bundle: TaskBundle): TaskBudgets {
  return taskTomlBudgets(bundle.files.find((f) => f.path === 'task.toml')?.content.toString() ?? '');
}

// A task with no task.toml of its own, and a procedural one of `steps` steps (its task.toml is rendered from these).
export const DEFAULT_TASK_BUDGETS = taskTomlBudgets('');
export function proceduralTaskBudgets(steps: number): TaskBudgets {
  return proceduralBudgets(steps);
}

// A retry with a larger budget (an attention exit's budgetFactor) multiplies the agent and verifier timeouts.
export function withBudgetFactor(b: TaskBudgets, factor: number): TaskBudgets {
  return { ...b, agentSec: b.agentSec * factor, verifierSec: b.verifierSec * factor };
}

export function buildMs(b: TaskBudgets): number {
  return b.buildSec * 1000;
}

// One trial: the agent phase, then the verifier phase.
export function trialMs(b: Pick<TaskBudgets, 'agentSec' | 'verifierSec'>): number {
  return (b.agentSec + b.verifierSec) * 1000;
}

// `count` rubric checks in one container, each allowed its budget and then its one larger retry.
export function rubricChecksMs(count: number, checkTimeoutSec = DEFAULT_CHECK_TIMEOUT_SEC): number {
  return checksWorstCaseSec(count, checkTimeoutSec) * 1000;
}

// The built-in rubric's executable items, for environments and for plans.
export const BUILTIN_ENVIRONMENT_CHECKS = BUILTIN_RUBRIC.filter((i) => i.appliesTo === 'environment' && i.check).length;
export const BUILTIN_PLAN_CHECKS = BUILTIN_RUBRIC.filter((i) => i.appliesTo === 'plan' && i.check).length;

// One validation of a task: its image builds, then the oracle and invalid-test trials run side by side on it.
export function validationMs(b: TaskBudgets): number {
  return buildMs(b) + trialMs(b);
}

// The counter-check and near-miss trial: every ancestor's solution twice (as it is, then on unwrapped
// data, after the unwrap pass) and every near miss once, one after the other in one container.
export function solutionChecksMs(b: TaskBudgets, o: { ancestors?: number; nearMisses?: number }): number {
  const runs = 2 * (o.ancestors ?? 0) + (o.nearMisses ?? 0);
  if (runs === 0) return 0;
  const budgets = solutionCheckBudgets(runs, (o.ancestors ?? 0) > 0, { agent: { timeout_sec: b.agentSec }, verifier: { timeout_sec: b.verifierSec } });
  return (budgets.agentPhaseSec + budgets.verifierPhaseSec) * 1000;
}

// One validation of an evolved candidate: its image builds, then the oracle and invalid-test trials and the
// counter-check and near-miss trial (against `ancestors` earlier solutions and `nearMisses` near misses) run
// side by side on it, with the rubric's checks (the built-in ones and `extraChecks` more) running beside them.
export function candidateValidationMs(
  b: TaskBudgets,
  o: { extraChecks?: number; checkTimeoutSec?: number; ancestors?: number; nearMisses?: number } = {},
): number {
  const trials = buildMs(b) + Math.max(trialMs(b), solutionChecksMs(b, o));
  return Math.max(trials, rubricChecksMs(BUILTIN_ENVIRONMENT_CHECKS + (o.extraChecks ?? 0), o.checkTimeoutSec));
}

// The loops a lineage gets when it names none.
export const DEFAULT_LOOPS: LoopConfig = loopConfigSchema.parse({});

export interface EvolutionShape {
  steps: number; // the seed's
  loops?: Pick<LoopConfig, 'maxPlanRounds' | 'maxModifyRounds'>; // the lineage's; DEFAULT_LOOPS when it names none
  lengthGrows?: boolean; // a length lineage adds one step per generation (and so agent time)
  extraChecks?: number; // lineage rubric items with a check, beside the built-in ones
  checkTimeoutSec?: number; // the context's rubricCheckTimeoutSec (the plan review's checks keep the default)
  nearMisses?: number; // near misses a candidate carries (each runs in the near-miss validator); default 0
}

// Evolving `generations` procedural generations: each reviews up to maxPlanRounds plans against the plan
// rubric's checks, then validates up to maxModifyRounds candidates, all bounded by the task's own timeouts.
export function evolutionMs(generations: number, o: EvolutionShape): number {
  const { maxPlanRounds, maxModifyRounds } = o.loops ?? DEFAULT_LOOPS;
  let total = 0;
  for (let g = 1; g <= generations; g++) {
    const task = proceduralTaskBudgets(o.steps + (o.lengthGrows ? g : 0));
    total += maxPlanRounds * rubricChecksMs(BUILTIN_PLAN_CHECKS);
    // Generation g descends from at most g versions (its parent back to the seed): each is counter-checked.
    total += maxModifyRounds * candidateValidationMs(task, { ...o, ancestors: g });
  }
  return total;
}

// A beforeAll that calls ensureBaseImage waits at most this long for another process's build of it.
export const BASE_IMAGE_WAIT_MS = BASE_IMAGE_LOCK_WAIT_MS;

// A statement on the shared SQLite file waits at most this long for another connection's lock.
export const SQLITE_BUSY_MS = BUSY_TIMEOUT_MS;

// A step no product budget bounds: a Node process started through tsx reaching its first database
// work, a request reaching a server on loopback, a PostgreSQL statement (the product sets no statement
// timeout there). Each takes well under a second on an idle machine; this is the one place their
// allowance lives, sized as SQLite's busy timeout (the product's own patience for one statement) so a
// machine whose cores are busy with other work many times over still passes.
export const UNBUDGETED_STEP_MS = BUSY_TIMEOUT_MS;

// Docker removing a container or a network (forced, in the background after a trial, or by the reaper):
// no product budget bounds it; seconds on an idle machine. The one place its allowance lives.
export const DOCKER_REMOVAL_MS = 60_000;

// An `envolve worker` process from launch to its first claim (Node, tsx, the CLI's start-up, its first
// query): no product budget bounds it. The one place its allowance lives.
export const WORKER_START_MS = 60_000;

// `envolve web` from launch to its first answer: Next's preparation of the build and the start-up
// migration check. No product budget bounds it either: seconds on an idle machine, over two minutes with
// both cores busy (load average 30 seen while other test runs shared them). The one place it lives.
export const WEB_START_MS = 200_000;
