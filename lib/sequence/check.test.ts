import { describe, expect, it } from 'vitest';
import { checkEdit } from './check.ts';
import { insertSteps, replaceField } from './edit.ts';
import { parent, step } from '../../test/fixtures/sequence-steps.ts';
import type { Sequence } from './types.ts';

describe('checkEdit: length', () => {
  const grown = insertSteps(parent, 4, [step('s5', 'ci-artifacts', 'sha256-checksum', ['s4'])]);

  it('accepts an appended step that consumes an existing output', () => {
    expect(checkEdit(parent, grown, 'length', 'low')).toEqual([]);
  });

  it('accepts a step inserted in the middle that depends on an earlier step', () => {
    const child = insertSteps(parent, 1, [step('s5', 'web-access-log', 'grep-regex', ['s1'])]);
    expect(checkEdit(parent, child, 'length', 'low')).toEqual([]);
  });

  it('accepts a contiguous chain of inserted steps at high effort, and refuses it at low', () => {
    const child = insertSteps(parent, 4, [step('s5', 'ci-artifacts', 'tar-archive', ['s4']), step('s6', 'ci-artifacts', 'sha256-checksum', ['s5'])]);
    expect(checkEdit(parent, child, 'length', 'high')).toEqual([]);
    expect(checkEdit(parent, child, 'length', 'low')).toEqual([expect.stringMatching(/low effort changes exactly one step; this edit changes 2/)]);
  });

  it('refuses separated insertions at high effort but accepts them at max', () => {
    const child = insertSteps(insertSteps(parent, 4, [step('s6', 'a', 'b', ['s4'])]), 1, [step('s5', 'a', 'b', ['s1'])]);
    expect(checkEdit(parent, child, 'length', 'high')).toEqual([expect.stringMatching(/not adjacent/)]);
    expect(checkEdit(parent, child, 'length', 'max')).toEqual([]);
  });

  it('refuses an inserted step that depends on nothing', () => {
    const child = insertSteps(parent, 4, [step('s5', 'a', 'b')]);
    expect(checkEdit(parent, child, 'length', 'low')).toEqual([expect.stringMatching(/inserted step s5 depends on no earlier step/)]);
  });

  it('refuses an edit that does not grow the sequence', () => {
    expect(checkEdit(parent, parent, 'length', 'max')).toEqual([expect.stringMatching(/length must grow/)]);
  });

  it('refuses changes to the parent steps: replaced, rewired, reordered, removed', () => {
    const replaced = replaceField(grown, ['s2'], 'skill', ['grep-regex']);
    expect(checkEdit(parent, replaced, 'length', 'max')).toEqual([expect.stringMatching(/step s2: skill changed/)]);

    const rewired: Sequence = { steps: grown.steps.map((s) => (s.id === 's3' ? { ...s, dependsOn: ['s1', 's2'] } : s)) };
    expect(checkEdit(parent, rewired, 'length', 'max')).toEqual([expect.stringMatching(/dependencies of existing steps changed: s3/)]);

    const reordered: Sequence = {
      steps: [grown.steps[0]!, grown.steps[2]!, grown.steps[1]!, grown.steps[3]!, grown.steps[4]!].map((s) => ({ ...s, dependsOn: [] })),
    };
    expect(checkEdit(parent, reordered, 'length', 'max').join('\n')).toMatch(/not kept in their order/);

    const removed: Sequence = { steps: [...grown.steps.slice(0, 3), step('s5', 'a', 'b', ['s3']), step('s6', 'a', 'b', ['s5'])] };
    expect(checkEdit(parent, removed, 'length', 'max').join('\n')).toMatch(/steps removed: s4/);
  });

  it('refuses a structurally invalid child before judging the edit', () => {
    const forward = insertSteps(parent, 0, [step('s5', 'a', 'b', ['s1'])]);
    expect(checkEdit(parent, forward, 'length', 'low')).toEqual([expect.stringMatching(/child is not a valid sequence: .*not an earlier step/)]);
  });
});

describe('checkEdit: scenario', () => {
  it('accepts one replaced scenario at low effort', () => {
    const child = replaceField(parent, ['s3'], 'scenario', ['inventory-csv']);
    expect(checkEdit(parent, child, 'scenario', 'low')).toEqual([]);
  });

  it('low effort means exactly one step; high a contiguous span; max anything', () => {
    const span = replaceField(parent, ['s2', 's3'], 'scenario', ['auth-syslog', 'inventory-csv']);
    expect(checkEdit(parent, span, 'scenario', 'low')).toHaveLength(1);
    expect(checkEdit(parent, span, 'scenario', 'high')).toEqual([]);
    const split = replaceField(parent, ['s1', 's4'], 'scenario', ['auth-syslog', 'inventory-csv']);
    expect(checkEdit(parent, split, 'scenario', 'high')).toEqual([expect.stringMatching(/s1, s4 are not adjacent/)]);
    expect(checkEdit(parent, split, 'scenario', 'max')).toEqual([]);
  });

  it('refuses changed skills, even a swap that keeps the multiset', () => {
    const swapped = replaceField(parent, ['s1', 's2', 's3'], 'skill', ['sort-uniq-count', 'awk-fields', 'join-tables']);
    const child = replaceField(swapped, ['s3'], 'scenario', ['inventory-csv']);
    const violations = checkEdit(parent, child, 'scenario', 'max');
    expect(violations).toEqual([expect.stringMatching(/step s1: skill changed/), expect.stringMatching(/step s2: skill changed/)]);
  });

  it('refuses an edit that changes no scenario, and one that inserts steps', () => {
    expect(checkEdit(parent, parent, 'scenario', 'low')).toEqual(['no scenario changed']);
    const child = insertSteps(replaceField(parent, ['s1'], 'scenario', ['dns-zone']), 4, [step('s5', 'a', 'b', ['s4'])]);
    expect(checkEdit(parent, child, 'scenario', 'max')).toEqual([expect.stringMatching(/steps inserted: s5/)]);
  });

  it('a same-name "replacement" is no change', () => {
    const child = replaceField(parent, ['s1'], 'scenario', ['web-access-log']);
    expect(checkEdit(parent, child, 'scenario', 'low')).toEqual(['no scenario changed']);
  });
});

describe('checkEdit: skill', () => {
  it('accepts one replaced skill at low effort', () => {
    const child = replaceField(parent, ['s2'], 'skill', ['sqlite-sql']);
    expect(checkEdit(parent, child, 'skill', 'low')).toEqual([]);
  });

  it('refuses changed scenarios and edits that change no skill', () => {
    const child = replaceField(replaceField(parent, ['s2'], 'skill', ['sqlite-sql']), ['s2'], 'scenario', ['dns-zone']);
    expect(checkEdit(parent, child, 'skill', 'low')).toEqual([expect.stringMatching(/step s2: scenario changed .*keeps every scenario/)]);
    expect(checkEdit(parent, parent, 'skill', 'max')).toEqual(['no skill changed']);
  });

  it('high effort: a contiguous span passes, separated steps do not; low refuses two', () => {
    const span = replaceField(parent, ['s3', 's4'], 'skill', ['sqlite-sql', 'python-script']);
    expect(checkEdit(parent, span, 'skill', 'high')).toEqual([]);
    expect(checkEdit(parent, span, 'skill', 'low')).toHaveLength(1);
    const split = replaceField(parent, ['s1', 's3'], 'skill', ['grep-regex', 'sqlite-sql']);
    expect(checkEdit(parent, split, 'skill', 'high')).toHaveLength(1);
  });
});
