// The delay of a timer armed from a budget in seconds. Node holds at most 2^31-1 ms in a timer and
// fires a longer one after 1 ms (with a TimeoutOverflowWarning), so a budget that long would end a
// phase at once: every timer armed from a task's budget goes through here and waits at most that.
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** `sec` as a timer delay in ms: never negative, never NaN, never longer than a timer can hold. */
export function timerDelayMs(sec: number): number {
  const ms = sec * 1000;
  if (!(ms > 0)) return 0;
  return Math.min(Math.ceil(ms), LONGEST_TIMER_MS);
}
