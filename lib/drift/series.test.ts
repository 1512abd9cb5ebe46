import { describe, expect, it } from 'vitest';
import { bandOverTime, metricChart } from './series.ts';
import { driftInput, lineageInfo } from '../../test/fixtures/drift-input.ts';

const t = (day: number) => new Date(Date.UTC(2026, 0, day));

describe('metric charts over generation number', () => {
  const input = driftInput([
    { info: lineageInfo('A'), positions: [{ values: { meanTurns: 10 } }, { values: { meanTurns: 20 } }, { values: { meanTurns: 30 } }] },
    { info: lineageInfo('B'), positions: [{ values: { meanTurns: 12 } }, { values: { meanTurns: 16 } }] },
    { info: lineageInfo('C'), positions: [{ values: { meanTurns: 14 } }, { values: { meanTurns: null } }, { values: { meanTurns: 40 } }] },
  ]);
  const chart = metricChart(input, 'meanTurns', 'generation');

  it('draws one line per lineage, skipping positions without a value', () => {
    expect(chart.lines.map((l) => [l.lineageId, l.points.map((p) => [p.x, p.y])])).toEqual([
      [
        'A',
        [
          [0, 10],
          [1, 20],
          [2, 30],
        ],
      ],
      [
        'B',
        [
          [0, 12],
          [1, 16],
        ],
      ],
      [
        'C',
        [
          [0, 14],
          [2, 40],
        ],
      ],
    ]);
    expect(chart.lines[0]?.points[1]?.generationId).toBe('A-g1');
  });

  it('marks a gap where a position between two points has no value, so the line is not joined across it', () => {
    expect(chart.lines.map((l) => l.points.map((p) => p.gapBefore))).toEqual([
      [false, false, false],
      [false, false],
      [false, true],
    ]);
  });

  it('summarises each generation across lineages: median, quartiles, min and max', () => {
    expect(chart.band).toEqual([
      { x: 0, n: 3, median: 12, q1: 11, q3: 13, min: 10, max: 14 },
      { x: 1, n: 2, median: 18, q1: 17, q3: 19, min: 16, max: 20 },
      { x: 2, n: 2, median: 35, q1: 32.5, q3: 37.5, min: 30, max: 40 },
    ]);
  });

  it('leaves out a lineage with no value at all', () => {
    expect(metricChart(input, 'tokensPerTurn', 'generation')).toEqual({ metric: 'tokensPerTurn', lines: [], band: [] });
  });
});

describe('metric charts over time', () => {
  it('uses creation times as x and carries each lineage forward between its own first and last point only', () => {
    const input = driftInput([
      {
        info: lineageInfo('A'),
        positions: [
          { at: t(1), values: { passRate: 0.5 } },
          { at: t(3), values: { passRate: 0.25 } },
          { at: t(5), values: { passRate: 0 } },
        ],
      },
      {
        info: lineageInfo('B'),
        positions: [
          { at: t(2), values: { passRate: 1 } },
          { at: t(3), values: { passRate: 0.75 } },
        ],
      },
    ]);
    const chart = metricChart(input, 'passRate', 'time');
    expect(chart.lines[0]?.points.map((p) => p.x)).toEqual([t(1), t(3), t(5)].map((d) => d.getTime()));
    const band = bandOverTime(chart.lines, 4); // buckets end on days 2, 3, 4 and 5
    expect(band.map((b) => [new Date(b.x).toISOString().slice(0, 13), b.n, b.median])).toEqual([
      ['2026-01-01T12', 2, 0.75], // A 0.5 (carried), B 1
      ['2026-01-02T12', 2, 0.5], // A 0.25, B 0.75
      ['2026-01-03T12', 2, 0.5], // B's last point (day 3) lies in this bucket: A 0.25, B 0.75
      ['2026-01-04T12', 1, 0], // B ended: only A
    ]);
  });

  it('gives one band point when every point has the same time', () => {
    const input = driftInput([{ info: lineageInfo('A'), positions: [{ at: t(1), values: { passRate: 0.5 } }] }]);
    expect(metricChart(input, 'passRate', 'time').band).toEqual([{ x: t(1).getTime(), n: 1, median: 0.5, q1: 0.5, q3: 0.5, min: 0.5, max: 0.5 }]);
  });
});
