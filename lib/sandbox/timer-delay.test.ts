// The bound on every timer armed from a task's budget.
import { describe, expect, it } from 'vitest';
import { LONGEST_TIMER_MS, timerDelayMs } from './timer-delay.ts';

// Node emits a TimeoutOverflowWarning on the next tick after arming a timer longer than it can hold.
async function warningsWhileArming(delayMs: number): Promise<string[]> {
  const seen: string[] = [];
  const listener = (warning: Error) => seen.push(warning.name);
  process.on('warning', listener);
  const timer = setTimeout(() => {}, delayMs);
  clearTimeout(timer);
  await new Promise((resolve) => setImmediate(resolve));
  process.off('warning', listener);
  return seen;
}

describe('timerDelayMs', () => {
  it('bounds a task budget to what a timer holds, and never goes negative or NaN', () => {
    expect(timerDelayMs(600)).toBe(600_000);
    expect(timerDelayMs(1e308)).toBe(LONGEST_TIMER_MS);
    expect(timerDelayMs(Number.POSITIVE_INFINITY)).toBe(LONGEST_TIMER_MS);
    expect(timerDelayMs(-5)).toBe(0);
    expect(timerDelayMs(Number.NaN)).toBe(0);
    expect(timerDelayMs(0.0004)).toBe(1);
  });

  it('a timer armed from a 1e308 s budget raises no TimeoutOverflowWarning, where the raw delay does', async () => {
    expect(await warningsWhileArming(1e308 * 1000)).toContain('TimeoutOverflowWarning');
    expect(await warningsWhileArming(timerDelayMs(1e308))).toEqual([]);
  });
});
