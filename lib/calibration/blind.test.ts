import { describe, expect, it } from 'vitest';
import { BLIND_ITEM_FIELDS, BLIND_TRAJECTORY_FIELDS, BLIND_TURN_FIELDS, FORBIDDEN_KEYS, forbiddenKeysIn, pick } from './blind.ts';

describe('the blind allow-list', () => {
  it('lists no forbidden key at any level', () => {
    for (const list of [BLIND_ITEM_FIELDS, BLIND_TRAJECTORY_FIELDS, BLIND_TURN_FIELDS]) {
      for (const key of list) expect(FORBIDDEN_KEYS as readonly string[]).not.toContain(key);
    }
    expect(BLIND_TURN_FIELDS).toEqual(['stepId', 'command', 'output', 'exitCode']);
  });

  it('pick keeps only the listed keys', () => {
    const step = { stepId: 2, command: 'ls', output: 'a', exitCode: 0, reasoning: 'simulated mistake: x', message: 'done', source: 'agent' };
    expect(pick(step, BLIND_TURN_FIELDS)).toEqual({ stepId: 2, command: 'ls', output: 'a', exitCode: 0 });
  });

  it('finds forbidden keys anywhere, with their path', () => {
    expect(forbiddenKeysIn({ trajectory: { turns: [{ command: 'ls' }, { reasoning: 'x' }] }, reward: 1 })).toEqual([
      '$.trajectory.turns[1].reasoning',
      '$.reward',
    ]);
    expect(forbiddenKeysIn({ ok: [1, 'reward', null] })).toEqual([]);
  });
});
