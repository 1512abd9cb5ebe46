// The job a settled decision queues (approve: the probe; request changes: the revision), keyed
// by generation and the revision the decision moved it to, so an undo can find and withdraw it.
import type { Decision } from './types.ts';

export function followUpJobKey(decision: Decision, generationId: string, revision: number): string | undefined {
  if (decision === 'approve') return `probe:${generationId}:${revision}`;
  if (decision === 'request-changes') return `revise:${generationId}:${revision}`;
  return undefined;
}
