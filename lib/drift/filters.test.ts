import { describe, expect, it } from 'vitest';
import { chartBandCsv, chartLinesCsv, toCsv } from './csv.ts';
import { metricChart } from './series.ts';
import { applyDriftFilter, driftFacets, driftFilterFromSearchParams, driftSearch, parseDriftFilter } from './filters.ts';
import { driftInput, lineageInfo } from '../../test/fixtures/drift-input.ts';

const SEED_A = 'a'.repeat(64);
const SEED_B = 'b'.repeat(64);
const input = driftInput([
  {
    info: lineageInfo('L1', { seedVersionId: SEED_A, seedName: 'alpha', axisPolicy: 'length', createdAt: new Date('2026-02-01T10:00:00Z') }),
    positions: [{}, {}],
  },
  {
    info: lineageInfo('L2', { seedVersionId: SEED_A, seedName: 'alpha', synthesiser: 'anthropic', createdAt: new Date('2026-02-03T23:59:00Z') }),
    positions: [{}],
  },
  { info: lineageInfo('L3', { seedVersionId: SEED_B, seedName: 'beta', createdAt: new Date('2026-02-04T00:00:00Z') }), positions: [{}] },
]);
const ids = (raw: Record<string, string>) => applyDriftFilter(input, driftFilterFromSearchParams(raw)).lineages.map((l) => l.id);

describe('drift filters', () => {
  it('filter by seed, axis policy, synthesiser and start date (whole UTC days)', () => {
    expect(ids({ seed: SEED_A })).toEqual(['L1', 'L2']);
    expect(ids({ axisPolicy: 'round-robin' })).toEqual(['L2', 'L3']);
    expect(ids({ synthesiser: 'anthropic' })).toEqual(['L2']);
    expect(ids({ from: '2026-02-02', to: '2026-02-03' })).toEqual(['L2']);
    expect(ids({ lineage: 'L3' })).toEqual(['L3']);
    expect(applyDriftFilter(input, driftFilterFromSearchParams({ lineage: 'L1' })).points).toHaveLength(2);
  });

  it('treats empty values as unset; the page drops an invalid field alone, the routes refuse it', () => {
    expect(driftFilterFromSearchParams({ seed: '', x: 'time', from: '2026-13-45' })).toEqual({ x: 'time' });
    const refused = parseDriftFilter({ from: 'yesterday' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('a date is YYYY-MM-DD');
    expect(parseDriftFilter({ x: 'sideways' }).success).toBe(false);
  });

  it('writes a filter back as a query string without defaults', () => {
    const filter = driftFilterFromSearchParams({ synthesiser: 'procedural', x: 'generation' });
    expect(driftSearch(filter)).toBe('synthesiser=procedural');
    expect(driftSearch(filter, { x: 'time' })).toBe('synthesiser=procedural&x=time');
  });

  it('offers every seed, policy and synthesiser as filter choices', () => {
    expect(driftFacets(input)).toEqual({
      seeds: [
        { id: SEED_A, name: 'alpha', lineages: 2 },
        { id: SEED_B, name: 'beta', lineages: 1 },
      ],
      axisPolicies: ['length', 'round-robin'],
      synthesisers: ['anthropic', 'procedural'],
    });
  });
});

describe('csv', () => {
  it('quotes cells with commas, quotes or line breaks, and leaves empty values empty', () => {
    expect(
      toCsv([
        ['a', 'b,c', 'say "hi"'],
        [1.5, null, 'two\nlines'],
        [Number.NaN, true, undefined],
      ]),
    ).toBe('a,"b,c","say ""hi"""\r\n1.5,,"two\nlines"\r\n,true,\r\n');
  });
});

describe('chart csv', () => {
  const two = driftInput([
    { info: lineageInfo('L1', { name: 'one' }), positions: [{ values: { meanTurns: 30, planRounds: null } }, { values: { meanTurns: 33.5, planRounds: 2 } }] },
    { info: lineageInfo('L2', { name: 'two' }), positions: [{ values: { meanTurns: 40 } }] },
  ]);
  const charts = [metricChart(two, 'meanTurns', 'generation'), metricChart(two, 'planRounds', 'generation')];

  it('joins the metrics of one chart per lineage position', () => {
    expect(
      chartLinesCsv(
        charts,
        'generation',
        new Map([
          ['L1', 'one'],
          ['L2', 'two'],
        ]),
      ).split('\r\n'),
    ).toEqual(['lineage_id,lineage_name,generation_id,generation,meanTurns,planRounds', 'L1,one,,0,30,', 'L1,one,L1-g1,1,33.5,2', 'L2,two,,0,40,', '']);
  });

  it('writes the bands per metric and x', () => {
    expect(chartBandCsv(charts, 'generation').split('\r\n').slice(0, 3)).toEqual([
      'metric,generation,lineages,median,q1,q3,min,max',
      'meanTurns,0,2,35,32.5,37.5,30,40',
      'meanTurns,1,1,33.5,33.5,33.5,33.5,33.5',
    ]);
  });
});
