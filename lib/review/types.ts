// Shapes of the review domain. An actor is whoever the server authenticated: decisions,
// comments and marks name them, and the audit log records their id and email.
export interface Actor {
  id: string;
  email: string;
}

export const DECISIONS = ['approve', 'reject', 'request-changes'] as const;
export type Decision = (typeof DECISIONS)[number];

export const AWAITING_REVIEW = 'awaiting-review';

// The state each decision moves a generation to (approve only once enough reviewers agree).
export const DECIDED_STATE: Record<Decision, string> = {
  approve: 'approved',
  reject: 'rejected',
  'request-changes': 'changes-requested',
};

export interface DecisionOutcome {
  reviewId: string;
  state: string;
  revision: number;
  approvals: number;
  approvalsRequired: number;
}
