// Shapes of the review domain. An actor is whoever the server authenticated: decisions,
// comments and marks name them, and the audit log records their id and email.
import { GenerationState } from '../evolution/states.ts';

export interface Actor {
  id: string;
  email: string;
}

export const DECISIONS = ['approve', 'reject', 'request-changes'] as const;
export type Decision = (typeof DECISIONS)[number];

export const AWAITING_REVIEW = GenerationState.awaitingReview;

export interface DecisionOutcome {
  reviewId: string;
  state: string;
  revision: number;
  approvals: number;
  approvalsRequired: number;
}
