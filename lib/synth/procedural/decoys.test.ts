// Decoy directories of a dependent step are plausible wrong answers of the upstream question:
// other entities, categories or texts of the upstream scenario, or values of the same shape, so
// no candidate can be told from the true one by its name alone.
import { describe, expect, it } from 'vitest';
import { decoysOf } from './render-step.ts';
import { renderEnvironmentWithSteps } from './render.ts';
import { createRng } from './rng.ts';
import { SCENARIOS } from './scenarios/index.ts';

const levenshtein = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = current;
  }
  return previous[b.length]!;
};

describe('decoys', () => {
  it('of a category, text or entity are other real ones of the same scenario', () => {
    const rng = createRng(3);
    for (const scenario of SCENARIOS) {
      for (const words of [scenario.categories, scenario.texts]) {
        const [word] = words;
        const decoys = decoysOf([word!], rng, 2);
        expect(decoys).toHaveLength(2);
        for (const decoy of decoys) expect(words, `${scenario.name}: ${word} → ${decoy}`).toContain(decoy);
      }
    }
    expect(decoysOf(['field-guide'], rng, 2).every((d) => levenshtein(d, 'field-guide') > 1)).toBe(true);
  });

  it('of a number are nearby numbers with the same decimals; of an id, the id with its number drawn again', () => {
    const rng = createRng(4);
    for (const decoy of decoysOf(['1234.50'], rng, 2)) expect(decoy).toMatch(/^\d+\.\d{2}$/);
    for (const decoy of decoysOf(['17'], rng, 2)) expect(decoy).toMatch(/^\d+$/);
    for (const decoy of decoysOf(['ACC-4821'], rng, 2)) {
      expect(decoy).toMatch(/^ACC-\d{4}$/);
      expect(levenshtein(decoy, 'ACC-4821')).toBeGreaterThan(1);
    }
    // A joined handle changes one of its parts, and a part may itself hold an underscore.
    for (const decoy of decoysOf(['contig_042', 'fee'], rng, 2)) expect(decoy.split('_')).toHaveLength(3);
  });

  it('in a rendered chain, every candidate directory of a word-valued answer is a real word of its scenario', () => {
    const sequence = {
      steps: [
        { id: 's1', scenario: 'payments-ledger', skill: 'base64-decode', dependsOn: [] },
        { id: 's2', scenario: 'inventory-csv', skill: 'awk-fields', dependsOn: ['s1'] },
      ],
    };
    const { steps } = renderEnvironmentWithSteps(sequence, { seed: 11, name: 'decoys' });
    const dirs = steps[1]!.datasets.map((d) => d.dir.split('/')[1]!);
    expect(dirs).toHaveLength(3);
    const words = new Set(SCENARIOS.flatMap((s) => [...s.categories, ...s.texts]));
    const handle = steps[0]!.answer.split(/\s/)[0]!;
    expect(dirs).toContain(handle);
    if (words.has(handle)) for (const dir of dirs) expect(words).toContain(dir);
  });
});
