// The monotone-difficulty gate around opaque steps: the same undescribed step in parent and child
// lets the described steps' gain decide; different ones cannot be compared and are refused.
import { describe, expect, it } from 'vitest';
import { difficulty } from '../difficulty/difficulty.ts';
import { tablePriors } from '../difficulty/priors.ts';
import { REFERENCE_TABLE } from '../difficulty/reference-priors.ts';
import type { Sequence } from '../sequence/types.ts';
import { describeDifficulty, monotoneViolations } from './difficulty-gate.ts';

const priors = tablePriors(REFERENCE_TABLE);
const imported = { id: 's1', scenario: 'imported:access-log-report', skill: 'imported:access-log-report', dependsOn: [] };
const parent: Sequence = { steps: [imported] };
const child: Sequence = { steps: [imported, { id: 's2', scenario: 'web-access-log', skill: 'sort-uniq-count', dependsOn: ['s1'] }] };
const extracted: Sequence = { steps: [{ id: 's1', scenario: 'web-access-log', skill: 'awk-fields', dependsOn: [] }] };

describe('the monotone gate with undescribed steps', () => {
  it('compares the described steps when parent and child hold the same undescribed step', () => {
    const before = difficulty(parent, priors);
    const after = difficulty(child, priors);
    expect(monotoneViolations(before, after, 'length', 0.05)).toEqual([]);
    // A margin larger than the new step's price is refused, saying the comparison is over the described steps.
    const [violation] = monotoneViolations(before, after, 'length', after.total + 1);
    expect(violation).toMatch(/over the described steps; the undescribed ones are the same in both/);
    expect(describeDifficulty(after)).toMatch(/^D unknown \(undescribed step s1; the described steps have [\d.]+ \(L \d+/);
  });

  it('refuses to compare when the undescribed steps differ', () => {
    const [violation] = monotoneViolations(difficulty(parent, priors), difficulty(extracted, priors), 'scenario', 0.05);
    expect(violation).toMatch(/difficulty cannot be compared: the parent's undescribed steps are \[s1\] and the child's \[\]/);
  });
});
