// The answer logic of the computation skills on hand-made records whose answers are worked out
// by hand, and the data each skill makes: the property that defeats its near misses (a tie at the
// cut, a gap of exactly the boundary, a look-alike category …) holds for every domain and data
// shape. That the near misses really fail is proven in Docker (test/synth/procedural-near-misses).
import { describe, expect, it } from 'vitest';
import type { DataRecord } from '../records.ts';
import { createRng, hashSeed } from '../rng.ts';
import { SCENARIOS } from '../scenarios/index.ts';
import type { Skill, StepParams } from '../skill.ts';
import { generateRecords } from '../records.ts';
import { aboveMean, aboveMeanSkill } from './above-mean.ts';
import { aboveUpstreamSkill, countAbove, countAboveMean } from './above-upstream.ts';
import { medianSkill } from './median.ts';
import { movingWindowSkill } from './moving-window.ts';
import { rateOfChangeSkill } from './rate-of-change.ts';
import { isoTime } from '../records.ts';
import { busiestHour, busiestHourSkill } from './busiest-hour.ts';
import { dedupeLast } from './dedupe-composite.ts';
import { denseRanks } from './dense-rank.ts';
import { binWidth, histogram } from './histogram.ts';
import { categoryTable } from './jq-group-by.ts';
import { regionCounts } from './left-join.ts';
import { streaks } from './longest-streak.ts';
import { peak } from './max-concurrency.ts';
import { lowerMedian, textMedian } from './median.ts';
import { bestWindow } from './moving-window.ts';
import { pivot } from './pivot-table.ts';
import { lookAlike } from './quoted-csv.ts';
import { largestStep } from './rate-of-change.ts';
import { looseNumber } from './reconcile.ts';
import { totalsPerKey, writeLine } from './regex-extract.ts';
import { halfwayRecord } from './running-total.ts';
import { longestSession, sessionsOf } from './sessions.ts';
import { snapshotDiff } from './snapshot-diff.ts';
import { maxPerQualifyingKey } from './sql-having.ts';
import { timeOpen } from './state-machine.ts';
import { gapsOver } from './time-gaps.ts';
import { topWithTies } from './top-k-ties.ts';
import { SKILLS } from './index.ts';

const T0 = Date.UTC(2024, 2, 1, 10) / 1000; // 2024-03-01T10:00:00Z
const rec = (key: string, value: number, offset: number, category = 'a', text = 'x'): DataRecord => ({ key, value, time: T0 + offset, category, text });

describe('computation skills: answers on hand-made records', () => {
  it('left join counts unlisted keys as unassigned and lists no empty region', () => {
    expect(
      regionCounts(
        ['k1', 'k2', 'k1', 'k3'],
        new Map([
          ['k1', 'north'],
          ['k9', 'west'],
        ]),
      ),
    ).toBe('north 2\nunassigned 2');
  });

  it('busiest hour: the dated hour with most records, ties to the earliest', () => {
    const records = [rec('a', 1, 0), rec('a', 1, 10), rec('a', 1, 3_600), rec('a', 1, 3_700), rec('a', 1, 86_400)];
    expect(busiestHour(records)).toEqual(['2024-03-01T10', 2]);
  });

  it('sessions split on gaps over 1800 s, not at exactly 1800 s, per key', () => {
    const records = [rec('a', 1, 0), rec('b', 1, 100), rec('a', 1, 1_800), rec('a', 1, 3_601), rec('b', 1, 200)];
    expect(sessionsOf(records).map((s) => [s.key, s.count])).toEqual([
      ['a', 2],
      ['b', 2],
      ['a', 1],
    ]);
    expect(longestSession(records)).toMatchObject({ key: 'a', start: T0, count: 2 });
  });

  it('the lower median, and what a text sort would take', () => {
    expect(lowerMedian([10, 9, 40, 11])).toBe(10);
    expect(textMedian(['10', '9', '40', '11'])).toBe('11');
  });

  it('de-duplication keeps the last record of each (key, time)', () => {
    const kept = dedupeLast([rec('a', 5, 0), rec('a', 7, 0), rec('b', 5, 0), rec('a', 1, 60)]);
    expect(kept.map((r) => r.value)).toEqual([7, 5, 1]);
  });

  it('top 3 with every key tied at the cut', () => {
    const records = [rec('a', 9, 0), rec('b', 8, 1), rec('c', 5, 2), rec('d', 5, 3), rec('e', 1, 4)];
    expect(topWithTies(records, 3)).toEqual([
      ['a', 9],
      ['b', 8],
      ['c', 5],
      ['d', 5],
    ]);
  });

  it('snapshot diff by key: added, removed, changed; equal values are silent', () => {
    const diff = snapshotDiff(
      new Map([
        ['a', 1],
        ['b', 2],
        ['c', 3],
      ]),
      new Map([
        ['b', 2],
        ['c', 4],
        ['d', 5],
      ]),
      String,
    );
    expect(diff).toEqual(['a removed', 'c changed 3 4', 'd added']);
  });

  it('above the mean of the own category, strictly', () => {
    const records = [rec('a', 2, 0, 'x'), rec('a', 4, 1, 'x'), rec('a', 6, 2, 'x'), rec('a', 100, 3, 'y')];
    const own = (r: DataRecord) => records.filter((x) => x.category === r.category);
    expect(aboveMean(records, own)).toBe('x 1\ny 0');
    expect(aboveMean(records, own, false)).toBe('x 2\ny 1');
  });

  it('max per key having at least 3 records of the category, compared as numbers', () => {
    const records = [rec('a', 9, 0, 'c'), rec('a', 10, 1, 'c'), rec('a', 11, 2, 'c'), rec('b', 50, 3, 'c'), rec('b', 1, 4, 'd'), rec('b', 1, 5, 'd')];
    expect(maxPerQualifyingKey(records, 'c', 3)).toEqual([['a', 11]]);
  });

  it('jq group_by table: distinct keys and totals per category', () => {
    expect(categoryTable([rec('a', 1, 0, 'x'), rec('a', 2, 1, 'x'), rec('b', 3, 2, 'x'), rec('a', 4, 3, 'y')], String)).toBe('x 2 6\ny 1 4');
  });

  it('time open: a repeated open keeps the first, an unclosed interval runs to the last event', () => {
    const events = [
      { time: 0, key: 'a', state: 'open' as const },
      { time: 10, key: 'a', state: 'open' as const },
      { time: 30, key: 'a', state: 'closed' as const },
      { time: 40, key: 'b', state: 'open' as const },
      { time: 45, key: 'b', state: 'closed' as const },
      { time: 50, key: 'b', state: 'closed' as const },
      { time: 60, key: 'c', state: 'open' as const },
      { time: 100, key: 'a', state: 'closed' as const },
    ];
    expect(timeOpen(events)).toEqual([
      ['c', 40],
      ['a', 30],
      ['b', 5],
    ]);
  });

  it('the running total reaches half at the record where it equals half', () => {
    const [record, running] = halfwayRecord([rec('a', 3, 0), rec('b', 2, 1), rec('c', 5, 2)]);
    expect([record.key, running]).toEqual(['b', 5]);
  });

  it('the best window of 3 and of 2, ties to the earliest', () => {
    const records = [5, 9, 9, 1, 10, 0].map((v, i) => rec('a', v, i));
    expect(bestWindow(records, 3)).toEqual([records[0], 23]);
    expect(bestWindow(records, 2)).toEqual([records[1], 18]);
    const tied = [9, 9, 1, 9, 9].map((v, i) => rec('a', v, i));
    expect(bestWindow(tied, 2)).toEqual([tied[0], 18]);
  });

  it('the largest rise, and the largest change by size', () => {
    const records = [5, 8, 1, 3].map((v, i) => rec('a', v, i));
    expect(largestStep(records)?.[2]).toBe(3);
    expect(largestStep(records, Math.abs)?.[2]).toBe(-7);
  });

  it('histogram bins are closed on the left, with round widths', () => {
    expect(binWidth(60_000, 1)).toBe(10_000);
    expect(binWidth(500_000, 100)).toBe(100_000);
    expect(
      histogram(
        [0, 9, 10, 35].map((v, i) => rec('a', v, i)),
        10,
      ),
    ).toEqual([
      [0, 2],
      [10, 1],
      [30, 1],
    ]);
  });

  it('peak concurrency over half-open intervals, and over closed ones', () => {
    const intervals = [
      { key: 'a', start: 0, end: 10 },
      { key: 'b', start: 5, end: 10 },
      { key: 'c', start: 10, end: 20 },
    ];
    expect(peak(intervals)).toEqual([2, 5]);
    expect(peak(intervals, true)).toEqual([3, 10]);
  });

  it('dense ranks share a rank and continue with the next', () => {
    expect(denseRanks([rec('b', 5, 0), rec('a', 5, 1), rec('c', 2, 2)])).toEqual([
      [1, 'a', 5],
      [1, 'b', 5],
      [2, 'c', 2],
    ]);
  });

  it('the pivot writes zeros and sorts rows and dates', () => {
    expect(pivot([rec('a', 1, 0, 'y'), rec('a', 1, 86_400, 'x'), rec('a', 1, 86_500, 'x')])).toBe('category 2024-03-01 2024-03-02\nx 0 2\ny 1 0');
  });

  it('gaps over an hour, not of exactly an hour', () => {
    expect(gapsOver([rec('a', 1, 0), rec('a', 1, 3_600), rec('a', 1, 7_201)], 3_600)).toEqual([[T0 + 3_600, T0 + 7_201]]);
  });

  it('streaks of the same category in time order', () => {
    expect(streaks(['x', 'x', 'y', 'x'].map((c, i) => rec('a', 1, i, c))).map((s) => s.length)).toEqual([2, 1, 1]);
  });

  it('regex extraction: request lines only, durations in ms or s', () => {
    const lines = [
      { time: T0, key: 'k', ms: 250, seconds: false, retry: false },
      { time: T0, key: 'k', ms: 2_500, seconds: true, retry: false },
      { time: T0, key: 'k', ms: 40, seconds: false, retry: true },
    ];
    expect(lines.map(writeLine)).toEqual([
      '2024-03-01T10:00:00Z INFO request done key=k dur=250ms status=ok',
      '2024-03-01T10:00:00Z INFO request done key=k dur=2.5s status=ok',
      '2024-03-01T10:00:00Z WARN retry scheduled retry_key=k dur=40ms attempt=2',
    ]);
    expect(totalsPerKey(lines)).toBe('k 2750');
  });

  it('look-alike categories and loosely written numbers', () => {
    expect(lookAlike('refund')).toBe('REFUND');
    expect(lookAlike('200')).toBe(' 200');
    expect([looseNumber(120_050, 100, 0), looseNumber(120_050, 100, 1), looseNumber(1_200, 1, 1)]).toEqual(['1200.5', '1200.500', '1200.0']);
  });
});

// The data of one step, as render-step makes it: records from the step's pool, then the skill.
function materialised(skill: Skill, domain: (typeof SCENARIOS)[number], seed: number, shape: [number, number]) {
  return materialisedWith(skill, domain, seed, shape, UPSTREAM_ANSWER);
}
function materialisedWith(skill: Skill, domain: (typeof SCENARIOS)[number], seed: number, [fewest, most]: [number, number], upstream: number) {
  const stepRng = createRng(hashSeed(seed, domain.name, skill.name));
  const keys = domain.makeKeys(stepRng);
  // Every step here depends on one earlier step answering UPSTREAM_ANSWER; only skills computing with it read it.
  const params: StepParams = { category: stepRng.pick(domain.categories), key: stepRng.pick(keys), batch: 2, upstreamFile: '/app/out/s1.txt' };
  const rng = createRng(hashSeed(seed, domain.name, skill.name, 'data'));
  const records = generateRecords(rng, {
    count: rng.int(fewest, most),
    keys,
    categories: domain.categories,
    texts: domain.texts,
    value: domain.value,
    ensureCategory: params.category,
    ensureKey: params.key,
  });
  const made = skill.materialise({ scenario: domain, params, rng, records, upstream });
  return { made, records, params };
}
const UPSTREAM_ANSWER = 37;

const SHAPES: [number, number][] = [
  [12, 24],
  [40, 60],
  [80, 120],
];
const COMPUTATIONS = SKILLS.filter((s) => s.nearMisses);

describe('computation skills: the data defeats the near misses, in every domain and shape', () => {
  it('there are at least twenty, each with two or three near misses unlike its solution', () => {
    expect(COMPUTATIONS.length).toBeGreaterThanOrEqual(20);
    for (const skill of COMPUTATIONS) {
      const domain = SCENARIOS[0]!;
      const params = { category: domain.categories[0]!, key: 'k', batch: 2, upstreamFile: '/app/out/s1.txt' };
      const misses = skill.nearMisses!(domain, params);
      expect(misses.length, skill.name).toBeGreaterThanOrEqual(2);
      expect(misses.length, skill.name).toBeLessThanOrEqual(3);
      expect(new Set(misses.map((m) => m.name)).size, skill.name).toBe(misses.length);
      for (const m of misses) {
        expect(m.name, skill.name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        expect(m.solve, `${skill.name} ${m.name}`).not.toBe(skill.solve(domain, params));
      }
    }
  });

  for (const domain of SCENARIOS) {
    it(`${domain.name}: every skill renders an answer, and the planted properties hold`, () => {
      for (const [i, shape] of SHAPES.entries()) {
        for (const skill of COMPUTATIONS) {
          const { made } = materialised(skill, domain, 700 + i, shape);
          expect(made.answer.trim(), `${skill.name} ${shape}`).not.toBe('');
          expect(made.files.length, skill.name).toBeGreaterThan(0);
        }
        // A tie for the busiest hour between two different hours.
        const hours = materialised(busiestHourSkill, domain, 700 + i, shape).records;
        const counts = new Map<string, number>();
        for (const r of hours)
          counts.set(new Date(r.time * 1000).toISOString().slice(0, 13), (counts.get(new Date(r.time * 1000).toISOString().slice(0, 13)) ?? 0) + 1);
        const top = Math.max(...counts.values());
        expect([...counts.values()].filter((n) => n === top).length, `${domain.name} busiest-hour tie`).toBeGreaterThanOrEqual(2);
        // A record exactly on its category's mean.
        const { records, params } = materialised(aboveMeanSkill, domain, 700 + i, shape);
        const group = records.filter((r) => r.category === params.category);
        const total = group.reduce((t, r) => t + r.value, 0);
        expect(
          group.some((r) => r.value * group.length === total),
          `${domain.name} above-mean pivot`,
        ).toBe(true);
        // The skills that reshape their data until the mistakes part ways got there.
        const own = (r: DataRecord) => records.filter((x) => x.category === r.category);
        expect(aboveMean(records, own), `${domain.name} above-mean overall`).not.toBe(aboveMean(records, () => records));
        // A threshold from the earlier answer: records exactly at T, and T's count unlike the mean's.
        for (const upstream of [0, 1, UPSTREAM_ANSWER, 86_400]) {
          const { records: around } = materialisedWith(aboveUpstreamSkill, domain, 700 + i, shape, upstream);
          const t = upstream * (domain.value.decimals === 0 ? 1 : 100);
          expect(countAbove(around, t, true) - countAbove(around, t), `${domain.name} above-upstream at T=${upstream}`).toBeGreaterThanOrEqual(2);
          expect(countAboveMean(around), `${domain.name} above-upstream mean T=${upstream}`).not.toBe(countAbove(around, t));
        }
        for (const seed of [700 + i, 900 + i]) {
          const median = materialised(medianSkill, domain, seed, shape);
          const values = median.records.filter((r) => r.category === median.params.category);
          const shown = (u: number) => (domain.value.decimals === 0 ? String(u) : `${Math.floor(u / 100)}.${String(u % 100).padStart(2, '0')}`);
          expect(textMedian(values.map((r) => shown(r.value))), `${domain.name} median text sort`).not.toBe(shown(lowerMedian(values.map((r) => r.value))));
          expect(values.length % 2, `${domain.name} median even count`).toBe(0);
          const windows = materialised(movingWindowSkill, domain, seed, shape);
          const mine = windows.records.filter((r) => r.key === windows.params.key);
          const start = (w: ReturnType<typeof bestWindow>) => (w ? `${isoTime(w[0].time)} ${w[1]}` : '');
          expect(start(bestWindow(mine, 3)), `${domain.name} window of two`).not.toBe(start(bestWindow(mine, 2)));
          expect(start(bestWindow(mine, 3)), `${domain.name} window over all keys`).not.toBe(start(bestWindow(windows.records, 3)));
          const steps = materialised(rateOfChangeSkill, domain, seed, shape);
          const keyed = steps.records.filter((r) => r.key === steps.params.key);
          const pair = (x: ReturnType<typeof largestStep>) => (x ? `${x[0].time} ${x[1].time} ${x[2]}` : '');
          expect(pair(largestStep(keyed)), `${domain.name} absolute change`).not.toBe(pair(largestStep(keyed, Math.abs)));
          expect(pair(largestStep(keyed)), `${domain.name} change over all keys`).not.toBe(pair(largestStep(steps.records)));
        }
      }
    });
  }
});

describe('wc-count: the tie its tie-break near miss needs', () => {
  it('the two longest files have as many lines, in every domain, shape and seed', () => {
    const wc = SKILLS.find((s) => s.name === 'wc-count')!;
    for (const domain of SCENARIOS)
      for (const shape of SHAPES)
        for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
          const lines = materialised(wc, domain, seed, shape)
            .made.files.map((f) => f.content.split('\n').length - 1)
            .sort((a, b) => b - a);
          expect(lines[0], `${domain.name} ${shape.join('-')} seed ${seed}`).toBe(lines[1]);
        }
  });
});
