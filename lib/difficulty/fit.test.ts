import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { replaceField } from '../sequence/edit.ts';
import type { Sequence } from '../sequence/types.ts';
import { difficulty } from './difficulty.ts';
import { fitPriors, type CorpusEnvironment } from './fit.ts';
import { loadFittedPriors, storeFittedPriors } from './fitted-store.ts';
import { tablePriors } from './priors.ts';
import { pairKey, REFERENCE_TABLE } from './reference-priors.ts';

const seq = (...pairs: [string, string][]): Sequence => ({
  steps: pairs.map(([scenario, skill], i) => ({ id: `s${i + 1}`, scenario, skill, dependsOn: i === 0 ? [] : [`s${i}`] })),
});
const corpus: CorpusEnvironment[] = [
  { name: 'a', versionId: 'va', sequence: seq(['genomics-fasta', 'awk-fields'], ['genomics-fasta', 'awk-fields']) },
  { name: 'b', versionId: 'vb', sequence: seq(['genomics-fasta', 'jq-query']) },
];
const sum = (m: ReadonlyMap<string, number>) => [...m.values()].reduce((x, y) => x + y, 0);

describe('fitPriors', () => {
  it('moves probability towards what the corpus holds, smoothed towards the base, each distribution summing to 1 − ε', () => {
    const { table, provenance } = fitPriors(corpus, REFERENCE_TABLE, { strength: 10, turnsStrength: 5 });
    const base = tablePriors(REFERENCE_TABLE);
    const fitted = tablePriors(table);
    // 3 of 3 steps are genomics-fasta: (3 + 10 p₀) / 13 before renormalising.
    expect(fitted.scenario('genomics-fasta').p).toBeGreaterThan(base.scenario('genomics-fasta').p);
    expect(fitted.scenario('genomics-fasta').p).toBeLessThan(1);
    expect(fitted.scenario('web-access-log').p).toBeLessThan(base.scenario('web-access-log').p);
    expect(fitted.skill('awk-fields', 'genomics-fasta').p).toBeGreaterThan(fitted.skill('jq-query', 'genomics-fasta').p);
    expect(fitted.skill('jq-query', 'genomics-fasta').p).toBeGreaterThan(base.skill('jq-query', 'genomics-fasta').p);
    // A scenario the corpus never shows keeps the base conditional.
    expect(fitted.skill('jq-query', 'dns-zone').p).toBe(base.skill('jq-query', 'dns-zone').p);
    // The plain names sum to 1 − ε; a composed name keeps the base's attribute factor over its plain one.
    const plain = (m: ReadonlyMap<string, number>) => new Map([...m].filter(([name]) => !name.includes('+')));
    expect(sum(plain(table.scenarios)) + table.scenarioEpsilon).toBeCloseTo(1, 12);
    expect(sum(plain(table.skillMarginal)) + table.skillEpsilon).toBeCloseTo(1, 12);
    for (const m of table.skillsGiven.values()) expect(sum(plain(m)) + table.skillEpsilon).toBeCloseTo(1, 12);
    const ratio = (m: ReadonlyMap<string, number>) => m.get('genomics-fasta+csv+bom')! / m.get('genomics-fasta')!;
    expect(ratio(table.scenarios)).toBeCloseTo(ratio(REFERENCE_TABLE.scenarios), 12);
    // A composed name in the corpus counts towards its plain name.
    const composed = fitPriors([{ name: 'c', versionId: 'vc', sequence: seq(['genomics-fasta+comments', 'awk-fields+gz']) }], REFERENCE_TABLE).table;
    expect(composed.scenarios.get('genomics-fasta')!).toBeGreaterThan(REFERENCE_TABLE.scenarios.get('genomics-fasta')!);
    expect(composed.skillsGiven.get('genomics-fasta')!.get('awk-fields')!).toBeGreaterThan(
      REFERENCE_TABLE.skillsGiven.get('genomics-fasta')!.get('awk-fields')!,
    );
    expect(provenance).toMatchObject({ base: REFERENCE_TABLE.version, counts: { environments: 2, steps: 3, scenarios: 1, pairs: 2, withTurns: 0 } });
    expect(table.version).toMatch(/^fit-[0-9a-f]{12}$/);
    expect(fitPriors(corpus, REFERENCE_TABLE, { strength: 10, turnsStrength: 5 }).table.version).toBe(table.version);
    expect(fitPriors(corpus, REFERENCE_TABLE, { strength: 3, turnsStrength: 5 }).table.version).not.toBe(table.version);
  });

  it('fits turns per pair from observed rollouts, shrunk towards the base', () => {
    const observed = [{ ...corpus[1]!, observedTurns: { mean: 15, rollouts: 8, policy: 'oracle' } }];
    const { table } = fitPriors(observed, REFERENCE_TABLE, { strength: 10, turnsStrength: 1 });
    const t0 = REFERENCE_TABLE.turns.get('jq-query')!; // 5: observed 15 is a ratio of 3
    expect(table.pairTurns.get(pairKey('genomics-fasta', 'jq-query'))).toBeCloseTo((t0 * (3 + 1)) / (1 + 1), 12);
    expect(fitPriors(corpus, REFERENCE_TABLE, { strength: 10, turnsStrength: 1 }).table.pairTurns.get(pairKey('genomics-fasta', 'jq-query'))).toBe(t0);
  });

  it('L is expected turns per pair: a scenario edit changes L under a fitted table', () => {
    const observed = [{ ...corpus[1]!, observedTurns: { mean: 9, rollouts: 8, policy: 'oracle' } }];
    const priors = tablePriors(fitPriors(observed, REFERENCE_TABLE, { strength: 10, turnsStrength: 1 }).table);
    const parent = seq(['genomics-fasta', 'jq-query']);
    const toNative = replaceField(parent, ['s1'], 'scenario', ['web-access-log']);
    const toNoisy = replaceField(parent, ['s1'], 'scenario', ['genomics-fasta+comments']);
    expect(difficulty(parent, priors).length).toBeCloseTo(7, 12); // 5 · (9/5 + 1) / 2
    expect(difficulty(toNative, priors).length).toBe(5); // an unseen pair: the base's turns
    expect(difficulty(toNoisy, priors).length).toBe(5); // the base's turns: noise is an attribute and adds none
  });

  it('refuses an empty corpus and non-positive strengths', () => {
    expect(() => fitPriors([], REFERENCE_TABLE)).toThrow(/no described step/);
    expect(() => fitPriors(corpus, REFERENCE_TABLE, { strength: 0, turnsStrength: 1 })).toThrow(/positive/);
  });
});

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.cleanup());

describe('fitted versions in the database', () => {
  it('round-trips a fitted table with its provenance, and storing the same version twice changes nothing', async () => {
    const fitted = fitPriors(corpus, REFERENCE_TABLE);
    expect(await storeFittedPriors(t.db, fitted)).toEqual({ created: true });
    expect(await storeFittedPriors(t.db, fitted)).toEqual({ created: false });
    const loaded = await loadFittedPriors(t.db, fitted.table.version);
    expect(loaded?.table).toEqual(fitted.table);
    expect(loaded?.provenance).toEqual(fitted.provenance);
    expect(await loadFittedPriors(t.db, 'fit-nothing')).toBeNull();
  });
});
