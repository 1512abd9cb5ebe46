import type { Sequence, Step } from './types.ts';

// Shared by the sequence tests.
export const step = (id: string, scenario: string, skill: string, dependsOn: string[] = []): Step => ({ id, scenario, skill, dependsOn });

// s1 → s2 → s3 → s4: a four-step chain.
export const parent: Sequence = {
  steps: [
    step('s1', 'web-access-log', 'awk-fields'),
    step('s2', 'web-access-log', 'sort-uniq-count', ['s1']),
    step('s3', 'payments-ledger', 'join-tables', ['s2']),
    step('s4', 'payments-ledger', 'bc-arithmetic', ['s3']),
  ],
};
