// Shapes of the generation review page. JSON-safe: dates are ISO strings.
import type { DiffLine, LastChange, ReviewCommentView } from '../review/index.ts';
import type { SequenceEdit, Step, StepReplacement } from '../sequence/index.ts';
import type { ValidatorRunRow } from './types.ts';

export interface GenerationHeader {
  id: string;
  number: number;
  state: string;
  revision: number;
  axis: string;
  effort: string;
  error: string | null;
  versionId: string | null;
  parentVersionId: string;
  createdAt: string;
  updatedAt: string;
  lineage: { id: string; name: string; approvalsRequired: number };
  approvals: { count: number; required: number; reviewers: string[] };
  lastChange: LastChange | null;
  // Set when its parent version is not the parent generation's current one (lib/evolution/supersede.ts).
  parentNotCurrent: string | null;
}

export interface SequenceView {
  parent: Step[] | null;
  child: Step[] | null;
  inserted: string[];
  replaced: StepReplacement[];
}

export interface PlanItemVerdict {
  itemId: string;
  label: string; // key@version of the rubric item, or the id when the item is gone
  verdict: string;
  reason: string;
}

export interface PlanRoundView {
  round: number;
  approved: boolean;
  edit: SequenceEdit | null;
  rationale: string;
  reasons: string[];
  violations: string[];
  items: PlanItemVerdict[];
  rubricVersion: string;
  createdAt: string;
}

export interface RubricVerdictView {
  id: string;
  itemKey: string;
  itemVersion: number;
  itemTitle: string;
  method: string;
  verdict: string;
  detail: string;
}

export interface AttemptRunView extends ValidatorRunRow {
  rubricVersion: string | null;
  rubricVerdicts: RubricVerdictView[];
}

export interface AttemptView {
  id: string;
  number: number;
  state: string;
  feedback: string;
  error: string | null;
  durationMs: number;
  candidateVersionId: string | null;
  /** Whether its modifier wrote a residual: only such attempts can be compared. */
  hasResidual: boolean;
  createdAt: string;
  runs: AttemptRunView[];
}

export interface DifficultyAxes {
  unknown: string | null; // shown in place of every axis when D is unknown (an undescribed step)
  length: number | null;
  scenario: number | null;
  skill: number | null;
  total: number | null;
  model: string | null;
}

export interface ReviewView {
  id: string;
  decision: string;
  comment: string;
  reviewerEmail: string;
  revision: number;
  createdAt: string;
}

// A residual file in the summary list: enough to draw its row without its content.
export interface ResidualFileSummary {
  path: string;
  op: 'add' | 'modify' | 'delete';
  oldSize: number | null;
  newSize: number | null;
  oldSha256: string | null;
  newSha256: string | null;
  /** What a viewed mark is kept on: the new content's hash, or for a deletion the hash of "deleted <old hash>". */
  contentSha256: string;
  /** Data the task works on (not its instruction, tests or solution): folded on the review page. */
  data: boolean;
  binary: boolean;
  large: boolean;
  executableChanged: boolean;
}

export interface GenerationReview {
  generation: GenerationHeader;
  sequence: SequenceView;
  rationale: string;
  planRounds: PlanRoundView[];
  attempts: AttemptView[];
  focusedAttempt: number | null; // the attempt whose residual is shown
  residual: ResidualFileSummary[];
  difficulty: { parent: DifficultyAxes; child: DifficultyAxes };
  reviews: ReviewView[];
  comments: ReviewCommentView[];
  viewedPaths: string[];
  /** Files of the shown residual the viewer saw with other content: marked viewed, or decided on, before a revision changed them. */
  changedSinceReview: ChangedSinceReview[];
}

export interface ChangedSinceReview {
  path: string;
  /** How the viewer last saw the file: a viewed mark on it, or a decision on the generation. */
  since: 'viewed' | 'decided';
  /** The attempt whose content of the file the viewer saw, when one still holds it. */
  seenAttempt: number | null;
}

/** The files that differ between two attempts' candidates, `from` the older one `to` the newer. */
export interface AttemptComparison {
  from: number;
  to: number;
  files: ResidualFileSummary[];
}

export type FileDiffView =
  // Every line, unchanged ones too: the page folds them into hunks and unfolds them on request.
  | { kind: 'text'; path: string; op: ResidualFileSummary['op']; lines: DiffLine[] }
  | {
      kind: 'summary';
      path: string;
      op: ResidualFileSummary['op'];
      reason: 'binary' | 'large';
      old: { size: number; sha256: string } | null;
      new: { size: number; sha256: string } | null;
    };
