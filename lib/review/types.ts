// Shapes of the review domain. Decisions, comments and marks name the person who made them
// (a PersonActor), and the audit log records their id and email.
import { GenerationState } from '../evolution/states.ts';

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
