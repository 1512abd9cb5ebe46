// Shapes of the review domain. Decisions, comments and marks name the person who made them
// (a PersonActor), and the audit log records their id and email.
export const DECISIONS = ['approve', 'reject', 'request-changes'] as const;
export type Decision = (typeof DECISIONS)[number];

export interface DecisionOutcome {
  reviewId: string;
  state: string;
  revision: number;
  approvals: number;
  approvalsRequired: number;
}
