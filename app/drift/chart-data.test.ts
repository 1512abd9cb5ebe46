// The page's charts draw what GET /api/drift sends: the same bands and lines, in the same columns,
// so a client of the route can draw what the page draws.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_THRESHOLDS, driftFilterFromSearchParams, driftView, driftWire, type DriftPage } from '@/lib/drift/index.ts';
import { driftInput, lineageInfo } from '../../test/fixtures/drift-input.ts';
import { CHART_METRICS, chartSpecs, type PositionIndex } from './chart-data.ts';

const input = driftInput([
  {
    info: lineageInfo('A'),
    positions: [{ probe: [1, 8], values: { meanTurns: 10.123456 } }, { values: { meanTurns: null } }, { probe: [5, 8], values: { meanTurns: 31.87654 } }],
  },
  {
    info: lineageInfo('B'),
    positions: [
      { probe: [0, 8], values: { meanTurns: 12 } },
      { probe: [8, 8], values: { meanTurns: 2 / 3 } },
    ],
  },
]);

function page(query: Record<string, string>): DriftPage {
  const view = driftView(input, driftFilterFromSearchParams(query), {
    calibration: [],
    thresholds: DEFAULT_ALERT_THRESHOLDS,
    now: new Date('2026-02-01T00:00:00Z'),
  });
  return { ...view, passRatePolicy: { policy: null, label: 'pass rates of each lineage', policies: [] }, checkpoints: [] };
}

describe('the drift charts and the wire form', () => {
  for (const x of ['generation', 'time']) {
    it(`draw the wire form's bands and lines, over ${x}`, () => {
      const view = page({ x });
      const wire = driftWire(view);
      for (const spec of chartSpecs(view, new Map())) {
        const metrics = CHART_METRICS[spec.id]!;
        expect(spec.series.map((s) => s.band)).toEqual(metrics.map((m) => wire.charts[m].band));
        expect(spec.lines).toEqual(wire.charts[metrics[0]!].lines.map(({ lineageId, xs, ys, gaps }) => ({ lineageId, xs, ys, gaps })));
      }
    });
  }

  it('name each point of one lineage by the generation the wire form gives for its number', () => {
    const view = page({ lineage: 'A' });
    const wire = driftWire(view);
    const positions: PositionIndex = new Map([['A-g2', { number: 2, axis: 'skill' }]]);
    const turns = chartSpecs(view, positions).find((s) => s.id === 'meanTurns')!.lines[0]!;
    const sent = wire.charts.meanTurns.lines[0]!;
    expect(turns.ids).toEqual(sent.numbers.map((n) => wire.generationIds.A![n]));
    expect(turns).toMatchObject({ xs: [0, 2], ys: [10.1235, 31.8765], gaps: [1], numbers: [0, 2], axes: [null, 'skill'] });
  });
});
