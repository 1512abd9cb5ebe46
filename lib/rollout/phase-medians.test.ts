import { describe, expect, it } from 'vitest';
import { phaseMedians } from './profile.ts';

describe('phaseMedians', () => {
  it('takes each step’s median over the rollouts that reached it', () => {
    const rollouts: { phaseMs: Record<string, number> | null }[] = [
      { phaseMs: { container: 10, agent: 100, verifier: 40 } },
      { phaseMs: { container: 30, agent: 300 } }, // timed out in the agent phase: no verifier step
      { phaseMs: { container: 20, agent: 200, verifier: 60 } },
      { phaseMs: null }, // stored before steps were recorded
    ];
    expect(phaseMedians(rollouts)).toEqual({ container: 20, agent: 200, verifier: 50 });
    expect(phaseMedians([])).toEqual({});
  });
});
