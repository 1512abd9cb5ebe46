import { describe, expect, it } from 'vitest';
import { draftFromPrefill, parsePrefill } from './prefill.ts';

describe('missed-issue prefill', () => {
  it('quotes a diff line and names the file and line', () => {
    const prefill = parsePrefill({ file: 'tests/test.sh', line: '12', excerpt: 'grep -q ok out.txt\nexit 0' });
    expect(prefill).toEqual({ file: 'tests/test.sh', line: 12, excerpt: 'grep -q ok out.txt\nexit 0' });
    expect(draftFromPrefill(prefill)).toEqual({
      title: 'Problem in tests/test.sh:12',
      description: 'In tests/test.sh, line 12:\n> grep -q ok out.txt\n> exit 0\n\n',
      validatorKind: 'rubric',
    });
  });

  it('drops invalid parameters one by one and blames the oracle from its row', () => {
    const prefill = parsePrefill({ line: '0', turn: 'x', rubricItem: 'oracle', trajectory: ['t1', 't2'] });
    expect(prefill).toEqual({ rubricItem: 'oracle', trajectory: 't1' });
    const draft = draftFromPrefill(prefill);
    expect(draft.validatorKind).toBe('oracle');
    expect(draft.description).toBe('Rubric item oracle let this through.\nTrajectory t1:\n\n');
  });

  it('is empty without context', () => {
    expect(draftFromPrefill(parsePrefill({}))).toEqual({ title: '', description: '', validatorKind: 'rubric' });
  });
});
