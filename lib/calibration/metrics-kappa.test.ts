import { describe, expect, it } from 'vitest';
import { cohenKappaAnnotators, cohenKappaTable, fleissKappa, fleissKappaCounts, type HumanLabel } from './metrics-kappa.ts';

describe("Cohen's κ", () => {
  it('textbook 2×2 (Wikipedia): 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no → κ = 0.4', () => {
    // N = 50, p_o = (20 + 15)/50 = 0.7; A says yes 25/50, B says yes 30/50
    // p_e = 0.5·0.6 + 0.5·0.4 = 0.5 → κ = (0.7 − 0.5)/(1 − 0.5) = 0.4
    const k = cohenKappaTable([
      [20, 5],
      [10, 15],
    ]);
    expect(k.value).toBeCloseTo(0.4, 12);
    expect(k.items).toBe(50);
  });

  it('two annotators: only items both labelled, unsure is a category', () => {
    const a = new Map<string, HumanLabel>([
      ['1', 'pass'],
      ['2', 'pass'],
      ['3', 'fail'],
      ['4', 'fail'],
      ['5', 'unsure'],
      ['6', 'pass'],
    ]);
    const b = new Map<string, HumanLabel>([
      ['1', 'pass'],
      ['2', 'fail'],
      ['3', 'fail'],
      ['4', 'fail'],
      ['5', 'unsure'],
      ['7', 'fail'],
    ]);
    // shared items 1–5. rows = A (pass, fail, unsure), cols = B:
    //   pass:   [1, 1, 0]   fail: [0, 2, 0]   unsure: [0, 0, 1]
    // N = 5, p_o = 4/5; rows 2,2,1; cols 1,3,1; p_e = (2·1 + 2·3 + 1·1)/25 = 9/25
    // κ = (0.8 − 0.36)/(1 − 0.36) = 0.44/0.64 = 0.6875
    const k = cohenKappaAnnotators(a, b);
    expect(k.items).toBe(5);
    expect(k.value).toBeCloseTo(0.6875, 12);
  });

  it('degenerate and empty cases are null with a reason, never NaN', () => {
    const same = cohenKappaTable([
      [7, 0],
      [0, 0],
    ]);
    expect(same.value).toBeNull();
    expect(same.reason).toMatch(/undefined/);
    const none = cohenKappaAnnotators(new Map([['1', 'pass']]), new Map([['2', 'pass']]));
    expect(none).toEqual({ value: null, items: 0, reason: 'no items rated by both raters' });
  });

  it('perfect disagreement on a balanced table is −1', () => {
    // p_o = 0, p_e = 0.5·0.5 + 0.5·0.5 = 0.5 → κ = −0.5/0.5 = −1
    expect(
      cohenKappaTable([
        [0, 5],
        [5, 0],
      ]).value,
    ).toBe(-1);
  });
});

describe("Fleiss' κ", () => {
  it('Wikipedia example: 10 items, 14 raters, 5 categories → κ ≈ 0.210', () => {
    const counts = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    // column totals 20, 28, 39, 21, 32 of 140 → p_j = 0.143, 0.200, 0.279, 0.150, 0.229
    // P̄_e = (20² + 28² + 39² + 21² + 32²)/140² = 4170/19600 = 0.212755
    // P_i = (Σ n_ij² − 14)/182: 1.000, 0.253, 0.308, 0.440, 0.330, 0.462, 0.242, 0.176, 0.286, 0.286
    //   Σ (Σ n_ij²) = 196+60+70+94+74+98+58+46+66+66 = 828 → P̄ = (828 − 140)/1820 = 0.378022
    // κ = (0.378022 − 0.212755)/(1 − 0.212755) = 0.165267/0.787245 = 0.209931
    const k = fleissKappaCounts(counts);
    expect(k.value).toBeCloseTo(0.209931, 5);
    expect(k.value!.toFixed(3)).toBe('0.210');
    expect(k.items).toBe(10);
  });

  it('three raters over pass / fail / unsure', () => {
    // counts (pass, fail, unsure): [3,0,0], [2,1,0], [0,3,0], [0,2,1]; m = 3, N = 4
    // P_i = (Σ n² − 3)/6: 1, 1/3, 1, 1/3 → P̄ = (8/3)/4 = 2/3
    // totals 5, 6, 1 of 12 → P̄_e = (25 + 36 + 1)/144 = 62/144
    // κ = (96/144 − 62/144)/(82/144) = 34/82 = 0.414634
    const k = fleissKappa([
      ['pass', 'pass', 'pass'],
      ['pass', 'fail', 'pass'],
      ['fail', 'fail', 'fail'],
      ['fail', 'unsure', 'fail'],
    ]);
    expect(k.value).toBeCloseTo(34 / 82, 12);
  });

  it('degenerate (everyone always says pass) is null; empty is null', () => {
    const k = fleissKappa([
      ['pass', 'pass', 'pass'],
      ['pass', 'pass', 'pass'],
    ]);
    expect(k.value).toBeNull();
    expect(k.reason).toMatch(/chance agreement is 1/);
    expect(fleissKappa([]).value).toBeNull();
  });

  it('requires the same number (≥ 2) of ratings per item', () => {
    expect(() =>
      fleissKappa([
        ['pass', 'pass', 'fail'],
        ['pass', 'fail'],
      ]),
    ).toThrow(/3 ratings/);
    expect(() => fleissKappa([['pass'], ['fail']])).toThrow(/at least 2/);
  });
});
