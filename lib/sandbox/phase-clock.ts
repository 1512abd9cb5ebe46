// Where a trial's wall time goes: consecutive laps, named by the step that just ended, so the
// laps add up to the trial's critical path (the benchmark reports them; removal is not on it).
export class PhaseClock {
  readonly laps: Record<string, number> = {};
  #last = performance.now();

  lap(name: string): void {
    const now = performance.now();
    this.laps[name] = (this.laps[name] ?? 0) + Math.round((now - this.#last) * 10) / 10;
    this.#last = now;
  }
}
