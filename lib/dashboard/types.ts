// Shapes the dashboard reads. They cross the server/client boundary and go out
// as JSON, so dates are ISO strings and nothing here refers to Prisma.
import type { StoredDifficulty } from '../difficulty/index.ts';
import type { VersionSandboxRuntime } from '../evolution/index.ts';
import type { SolutionCheckReport } from '../validate/index.ts';
import type { DisplayEntry } from './flatten.ts';

export type ValidatorKind = 'oracle' | 'invalid-test';

// The newest run of one validator kind: enough to draw a verdict badge.
export interface VerdictSummary {
  runId: string;
  kind: string;
  verdict: string; // "passed" | "failed" | "error"
  status: string;
  reward: number | null;
  expectedReward: number;
  imageId: string | null;
  totalDurationMs: number;
  createdAt: string;
}

export interface EnvironmentListItem {
  id: string;
  name: string;
  source: string;
  createdAt: string;
  fileCount: number;
  oracle: VerdictSummary | null;
  invalidTest: VerdictSummary | null;
  // A queued or running job mentions this version: verdicts are about to change.
  validationPending: boolean;
}

export interface EnvironmentFileRow {
  path: string;
  size: number;
  executable: boolean;
  blobHash: string;
}

// Every column of a validator run except the logs, which can be large and are
// fetched on demand from /api/validator-runs/[id]/log.
export interface ValidatorRunRow {
  id: string;
  versionId: string;
  kind: string;
  verdict: string;
  status: string;
  reward: number | null;
  rewardDetail: string | null;
  expectedReward: number;
  imageId: string | null;
  agentExitCode: number | null;
  verifierExitCode: number | null;
  error: string | null;
  // Sandbox facts (network mode, limits, OOM kill, pids limit), flattened for display.
  containment: DisplayEntry[];
  timedOut: boolean;
  buildDurationMs: number;
  agentDurationMs: number;
  verifierDurationMs: number;
  totalDurationMs: number;
  jobId: string | null;
  sandboxRuntime: string | null; // the OCI runtime the trial ran under (null: not recorded, or no trial ran)
  // Counter-check and near-miss runs: every solution run, its steps and why it was caught or not.
  solutionCheck: SolutionCheckReport | null;
  createdAt: string;
  label: string; // what the badge says (run-label.ts): a rubric run is "passed" only when it judged everything
  judged: string | null; // rubric runs: "8 of 19 judged, 11 need an LLM judge"
}

// One `[table]` of task.toml, flattened to displayable key/value pairs.
export interface TaskTomlSection {
  name: string;
  entries: DisplayEntry[];
}

export interface EnvironmentDetail {
  id: string;
  name: string;
  source: string;
  createdAt: string;
  taskToml: string;
  taskTomlSections: TaskTomlSection[];
  taskTomlError: string | null;
  // task.toml as parsed, TOML types kept (arrays, numbers, booleans); null when it does not parse.
  taskConfig: Record<string, unknown> | null;
  // The task author's own [metadata] difficulty, as written; Envolve's computed one is `difficulty`.
  taskDifficulty: unknown;
  // Phases whose table sets allow_internet = true: Envolve runs them offline all the same.
  internetRequested: string[];
  instruction: string;
  files: EnvironmentFileRow[];
  runs: ValidatorRunRow[]; // newest first
  validationPending: boolean;
  // Off-policy difficulty, once the version's sequence is known (null before); unknown while a step is undescribed.
  difficulty: StoredDifficulty | null;
  sequence: { id: string; scenario: string; skill: string; dependsOn: string[] }[] | null;
  // Turns measured by rollouts of the version (probes, trainer groups), per policy: shown beside
  // the estimated L; simulated policies are labelled as such.
  measuredTurns: { policy: string; simulated: boolean; rollouts: number; medianTurns: number; sandboxRuntimes: string[] }[];
  // The runtime the version's trials run under and why; `required` is its task.toml's own ask.
  sandboxRuntime: VersionSandboxRuntime;
  describable: boolean; // an imported task a reviewer may describe (envolve env sequence --set)
}

export type LogPhase = 'agent' | 'verifier';
