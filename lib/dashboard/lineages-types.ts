// Shapes behind the lineage pages. They cross the server/client boundary and go out as JSON,
// so dates are ISO strings and nothing here refers to Prisma.
import type { StoredDifficulty } from '../difficulty/index.ts';
import type { ExhaustedAxes } from '../evolution/index.ts';
import type { ResolvedSandboxRuntime } from '../sandbox/index.ts';
import type { SortDirection } from './table-view.ts';

export const LINEAGE_SORTS = ['activity', 'name', 'generations'] as const;
export type LineageSort = (typeof LINEAGE_SORTS)[number];
// The direction each sort takes when the URL names none: names A–Z, the most generations and the latest activity first.
export const LINEAGE_SORT_DIRECTIONS = { activity: 'desc', name: 'asc', generations: 'desc' } as const satisfies Record<LineageSort, SortDirection>;

export interface LineageListQuery {
  status?: string;
  synthesiser?: string;
  q?: string;
  sort: LineageSort;
  dir?: SortDirection; // absent: the sort's own direction
  page: number; // 1-based
  pageSize: number;
}

// One generation's share of passed validator runs, in generation order; null: no runs yet.
export interface PassRatePoint {
  number: number;
  state: string;
  rate: number | null;
  runs: number;
}

export interface LineageListItem {
  id: string;
  name: string;
  seedVersionId: string;
  seedName: string;
  status: string;
  synthesiser: string;
  axisPolicy: string;
  effort: string;
  frontier: number | null;
  settledGenerations: number;
  failedGenerations: number;
  lastActivity: string;
  passRates: PassRatePoint[];
}

export interface LineageListPage {
  items: LineageListItem[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  synthesisers: string[]; // every synthesiser in use, for the filter
}

export type Difficulty = StoredDifficulty;

// The newest run of each validator kind on one attempt's candidate.
export interface TreeVerdict {
  kind: string;
  verdict: string; // stored; a rubric run's is its gate (no judged item failed), never shown alone
  label: string; // what the badge says: a rubric run that left verdicts unjudged is "partly judged"
  judged: string | null; // rubric runs: "8 of 19 judged, 11 need an LLM judge"
  reward: number | null;
}

export interface TreeAttempt {
  id: string;
  number: number;
  state: string; // modifying | validating | valid | invalid | error | skipped
  error: string | null;
  candidateVersionId: string | null;
  durationMs: number;
  verdicts: TreeVerdict[];
}

// The newest complete probe or trainer group of a version under the policy the tree shows.
export interface TreeProbe {
  policy: string;
  policyVersion: string; // the checkpoint (or model id) that made the group
  passes: number;
  size: number;
  simulated: boolean;
}

// Why a generation is released: the group that passed, its policy, and the rule it passed under.
export interface TreeRelease {
  groupId: string | null;
  policy: string | null; // null: released before releases recorded their policy
  policyVersion: string | null; // null: released before releases recorded the policy's version
  simulated: boolean;
  passes: number | null;
  size: number | null;
  releaseRate: number | null;
  minGroup: number | null;
  demoMode: boolean;
  // Who reported the releasing group through the trainer API: the user and the token's name (null
  // for Envolve's own probes and for groups reported before reports recorded their sender).
  reportedBy: { email: string | null; token: string | null } | null;
}

export interface TreeGate {
  policy: string;
  releaseRate: number;
  minGroup: number;
  timeoutReward: number;
  demoMode: boolean;
}

export interface TreeGeneration {
  id: string;
  number: number;
  state: string;
  revision: number;
  axis: string;
  effort: string;
  parentVersionId: string;
  versionId: string | null;
  error: string | null;
  difficulty: Difficulty | null;
  planRounds: number;
  verdicts: TreeVerdict[]; // of the attempt the generation settled on, else its latest
  attempts: TreeAttempt[];
  probe: TreeProbe | null; // under `LineageTree.policy`
  release: TreeRelease | null; // set when released; its counts are of the previous generation's group
  wait: string | null; // approved, not released: what it waits for (lib/scheduler/waits.ts)
  createdAt: string;
  updatedAt: string;
}

export interface LineageTree {
  id: string;
  name: string;
  status: string;
  synthesiser: string;
  axisPolicy: string;
  effort: string;
  frontier: number | null;
  approvalsRequired: number;
  exhaustedAxes: ExhaustedAxes; // per axis: the generation that found no edit raising D, and why
  gate: TreeGate; // what releases this lineage's generations
  sandboxRuntime: ResolvedSandboxRuntime; // its trials' runtime (an environment may still require runsc), and why
  // The reference priors its generations' D is measured under, and the tables a lead may choose.
  priors: { version: string; fitted: boolean; description: string; choices: { version: string; description: string }[] };
  policy: string; // the policy whose pass rates the tree shows (default: the gate's)
  policies: string[]; // every policy with a complete group on this lineage's versions
  policyVersion: string | null; // the newest version of the gate's policy: the only one whose groups count
  frontierWait: string | null; // what the next release waits for (lib/scheduler/waits.ts)
  seed: { versionId: string; name: string; difficulty: Difficulty | null; probe: TreeProbe | null };
  generations: TreeGeneration[]; // by number, then creation
}
