// The wire form of GET /api/drift carries every chart point, band point and outcome point of the
// page: zipped back together they are the page's, values rounded to 4 decimals.
import { describe, expect, it } from 'vitest';
import { driftInput, lineageInfo } from '../../test/fixtures/drift-input.ts';
import type { DriftPage } from './load-view.ts';
import { driftView } from './view.ts';
import { driftFilterFromSearchParams } from './filters.ts';
import { DEFAULT_ALERT_THRESHOLDS } from './alerts.ts';
import { METRICS } from './types.ts';
import { driftWire, roundValue, type WireBand, type WireLine } from './wire.ts';

const input = driftInput([
  {
    info: lineageInfo('A'),
    positions: [
      { probe: [1, 8], values: { meanTurns: 10.123456, difficultyTotal: 1.000049 } },
      { probe: [3, 8], values: { meanTurns: 20, difficultyTotal: 2.5 } },
      { values: { meanTurns: null, difficultyTotal: 3 } },
      { probe: [5, 8], values: { meanTurns: 31.87654321, difficultyTotal: 3.333333333 } },
    ],
  },
  {
    info: lineageInfo('B'),
    positions: [
      { probe: [0, 8], values: { meanTurns: 12, difficultyTotal: 1.2 } },
      { probe: [8, 8], values: { meanTurns: 2 / 3, difficultyTotal: 1 / 7 } },
    ],
  },
]);

function page(x: 'generation' | 'time'): DriftPage {
  const view = driftView(input, driftFilterFromSearchParams({ x }), {
    calibration: [],
    thresholds: DEFAULT_ALERT_THRESHOLDS,
    now: new Date('2026-02-01T00:00:00Z'),
  });
  return { ...view, passRatePolicy: { policy: null, label: 'pass rates', policies: ['simulated'] }, checkpoints: [] };
}

const linePoints = (line: WireLine, ids: (string | null)[]) =>
  line.xs.map((x, i) => ({ x, y: line.ys[i], number: line.numbers[i], generationId: ids[line.numbers[i]!], gapBefore: line.gaps.includes(i) }));

const bandPoints = (band: WireBand) =>
  band.xs.map((x, i) => ({ x, n: band.n[i], median: band.median[i], q1: band.q1[i], q3: band.q3[i], min: band.min[i], max: band.max[i] }));

describe('the drift wire form', () => {
  for (const x of ['generation', 'time'] as const) {
    it(`carries every line and band point of every chart, over ${x}`, () => {
      const source = page(x);
      const wire = driftWire(source);
      for (const metric of METRICS) {
        const chart = source.charts[metric];
        expect(wire.charts[metric].lines.map((l) => [l.lineageId, linePoints(l, wire.generationIds[l.lineageId]!)])).toEqual(
          chart.lines.map((l) => [l.lineageId, l.points.map((p) => ({ ...p, y: roundValue(p.y) }))]),
        );
        expect(bandPoints(wire.charts[metric].band)).toEqual(
          chart.band.map((b) => ({
            ...b,
            median: roundValue(b.median),
            q1: roundValue(b.q1),
            q3: roundValue(b.q3),
            min: roundValue(b.min),
            max: roundValue(b.max),
          })),
        );
      }
    });
  }

  it('rounds values to 4 decimals and marks the gap where a generation has no value', () => {
    const wire = driftWire(page('generation'));
    const turnsOfA = wire.charts.meanTurns.lines.find((l) => l.lineageId === 'A')!;
    expect(turnsOfA).toEqual({ lineageId: 'A', xs: [0, 1, 3], ys: [10.1235, 20, 31.8765], numbers: [0, 1, 3], gaps: [2] });
    expect(wire.generationIds.A).toEqual([null, 'A-g1', 'A-g2', 'A-g3']);
  });

  it('gives each outcome row its points as columns, rounded', () => {
    const source = page('generation');
    const wire = driftWire(source);
    expect(wire.difficultyOutcome.map((r) => r.name)).toEqual(source.difficultyOutcome.map((r) => r.name));
    wire.difficultyOutcome.forEach((row, i) => {
      const points = source.difficultyOutcome[i]!.points;
      expect(row.points).toEqual({
        ds: points.map((p) => roundValue(p.d)),
        passRates: points.map((p) => (p.passRate === null ? null : roundValue(p.passRate))),
        meanTurns: points.map((p) => (p.meanTurns === null ? null : roundValue(p.meanTurns))),
      });
      expect(row.passRate.n).toBe(source.difficultyOutcome[i]!.passRate.n);
    });
    const b = wire.difficultyOutcome.find((r) => r.lineageId === 'B')!;
    expect(b.points.meanTurns).toEqual([12, 0.6667]);
  });

  it('keeps the rest of the page as it is', () => {
    const { charts, difficultyOutcome, ...rest } = page('generation');
    const wire: Record<string, unknown> = driftWire({ charts, difficultyOutcome, ...rest });
    expect(Object.keys(wire).sort()).toEqual([...Object.keys(rest), 'charts', 'difficultyOutcome', 'generationIds'].sort());
    for (const [key, value] of Object.entries(rest)) expect(wire[key]).toEqual(value);
  });
});
