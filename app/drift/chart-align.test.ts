import { describe, expect, it } from 'vitest';
import { alignChart, alignLine, sharedRange } from './chart-align.ts';
import type { ChartSpec, ClientBand, ClientLine } from './chart-data.ts';

const band = (xs: number[], median: number[]): ClientBand => ({ xs, median, q1: median, q3: median, min: median, max: median, n: xs.map(() => 2) });
const line = (lineageId: string, xs: number[], ys: number[], gaps: number[] = []): ClientLine => ({ lineageId, xs, ys, gaps });
const spec = (bandXs: number[], lines: ClientLine[]): ChartSpec => ({
  id: 'passRate',
  title: 'Probe pass rate',
  subtitle: '',
  yLabel: 'pass rate (% of rollouts)',
  format: 'percent',
  series: [
    {
      metric: 'passRate',
      label: 'pass rate',
      color: '#000',
      band: band(
        bandXs,
        bandXs.map((x) => x / 10),
      ),
      showBand: true,
    },
  ],
  lines,
});

describe('alignChart over generations', () => {
  it('puts every generation between the first and the last on the x array, and breaks a band at one nobody measured', () => {
    const aligned = alignChart(spec([0, 1, 3], [line('A', [0, 1, 3], [0.5, 0.4, 0.2], [2])]), false);
    expect(aligned.xs).toEqual([0, 1, 2, 3]);
    expect(aligned.medians[0]).toEqual([0, 0.1, null, 0.3]);
    expect(aligned.bands.q1).toEqual([0, 0.1, null, 0.3]);
  });

  it('breaks a line where it has a gap and joins it across another line’s points', () => {
    const aligned = alignChart(spec([0, 1, 2, 3], [line('A', [0, 3], [0.5, 0.2], [1]), line('B', [0, 3], [0.5, 0.2])]), false);
    expect(aligned.lines[0]).toEqual([0.5, null, null, 0.2]);
    expect(aligned.lines[1]).toEqual([0.5, undefined, undefined, 0.2]);
  });
});

describe('alignChart over time', () => {
  it('lets a bucketed band and the lines skip each other’s x positions without breaking', () => {
    const aligned = alignChart(spec([15, 35], [line('A', [10, 20, 40], [1, 2, 3], [2])]), true);
    expect(aligned.xs).toEqual([10, 15, 20, 35, 40]);
    expect(aligned.medians[0]).toEqual([undefined, 1.5, undefined, 3.5, undefined]);
    expect(aligned.lines[0]).toEqual([1, undefined, 2, null, 3]);
  });
});

describe('alignLine', () => {
  it('keeps each value at its own x, the first and the last included', () => {
    expect(alignLine([0, 1, 2, 3, 4], line('A', [1, 2, 4], [7, 8, 9], [2]))).toEqual([undefined, 7, 8, null, 9]);
  });
});

describe('sharedRange', () => {
  it('spans every chart on the page', () => {
    expect(sharedRange([spec([0, 1], []), spec([2, 5], [line('A', [7], [1])])], false)).toEqual([0, 7]);
    expect(sharedRange([spec([], [])], false)).toBeNull();
  });
});
