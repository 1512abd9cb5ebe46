import { describe, expect, it } from 'vitest';
import { parseRewardJson, parseRewardTxt } from './reward.ts';

describe('reward files', () => {
  it('reads one number from reward.txt', () => {
    expect(parseRewardTxt('1\n')).toEqual({ ok: true, reward: 1 });
    expect(parseRewardTxt(' 0.75 ')).toEqual({ ok: true, reward: 0.75 });
  });

  it('treats empty or non-numeric reward.txt as no reward', () => {
    expect(parseRewardTxt('  \n')).toMatchObject({ ok: false, problem: 'reward.txt is empty' });
    expect(parseRewardTxt('passed')).toMatchObject({ ok: false });
    expect(parseRewardTxt('1\n2')).toMatchObject({ ok: false });
  });

  it('reads reward.json as a flat map; the scalar is its reward key, else the mean', () => {
    expect(parseRewardJson('{"reward": 0.5, "style": 1}')).toEqual({ ok: true, reward: 0.5, detail: { reward: 0.5, style: 1 } });
    expect(parseRewardJson('{"a": 1, "b": 0}')).toEqual({ ok: true, reward: 0.5, detail: { a: 1, b: 0 } });
  });

  it('rejects reward.json that is not a flat map of numbers', () => {
    for (const bad of ['', '[1]', '{}', '{"a": "1"}', '{"a": {"b": 1}}', '3']) {
      expect(parseRewardJson(bad).ok).toBe(false);
    }
  });
});
