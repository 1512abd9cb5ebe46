import { describe, expect, it } from 'vitest';
import { insertSteps, replaceField } from '../sequence/edit.ts';
import type { Sequence } from '../sequence/types.ts';
import { difficulty } from './difficulty.ts';
import { tablePriors } from './priors.ts';
import { pairKey, REFERENCE_TABLE, type ReferenceTable } from './reference-priors.ts';

// A hand-sized table so the expected numbers can be worked out on paper.
const small: ReferenceTable = {
  version: 'test-1',
  scenarioEpsilon: 0.2,
  skillEpsilon: 0.1,
  scenarios: new Map([
    ['a', 0.5],
    ['b', 0.3],
  ]),
  skillsGiven: new Map([
    [
      'a',
      new Map([
        ['x', 0.6],
        ['y', 0.3],
      ]),
    ],
    [
      'b',
      new Map([
        ['x', 0.2],
        ['y', 0.7],
      ]),
    ],
  ]),
  skillMarginal: new Map([
    ['x', 0.45],
    ['y', 0.45],
  ]),
  turns: new Map([
    ['x', 3],
    ['y', 5],
  ]),
  scenarioTurns: new Map([['b', 1]]),
  pairTurns: new Map(),
  unknownSkillTurns: 4,
};
const two: Sequence = {
  steps: [
    { id: 's1', scenario: 'a', skill: 'x', dependsOn: [] },
    { id: 's2', scenario: 'b', skill: 'y', dependsOn: ['s1'] },
  ],
};

describe('difficulty', () => {
  it('computes the three components exactly on a small sequence', () => {
    const d = difficulty(two, tablePriors(small));
    // L in turns: 3 for skill x plus 5 for skill y and 1 more for scenario b; s2 consumes s1, so the chain is 2 deep.
    expect(d.length).toBe(9);
    expect(d.depth).toBe(2);
    // −ln 0.5 − ln 0.3 and −ln 0.6 − ln 0.7
    expect(d.scenarioNovelty).toBeCloseTo(0.6931471805599453 + 1.2039728043259361, 12);
    expect(d.skillRarity).toBeCloseTo(0.5108256237659907 + 0.35667494393873245, 12);
    expect(d.total).toBeCloseTo(9 + 1.8971199848858813 + 0.8675005677047231, 12);
    expect(d.model).toBe('test-1');
    expect(d.steps[1]).toEqual({
      stepId: 's2',
      turns: 6,
      scenario: { name: 'b', p: 0.3, source: 'table', nll: -Math.log(0.3) },
      skill: { name: 'y', p: 0.7, source: 'table', nll: -Math.log(0.7) },
    });
    expect(d.estimated).toEqual([]);
    expect(d.smoothed).toEqual([]);
  });

  it('is zero for an empty sequence', () => {
    expect(difficulty({ steps: [] }, tablePriors(small))).toMatchObject({ length: 0, scenarioNovelty: 0, skillRarity: 0, total: 0 });
  });

  it('smooths unknown names with ε and backs a known skill off to its marginal in an unknown scenario', () => {
    const sequence: Sequence = {
      steps: [
        { id: 's1', scenario: 'c', skill: 'x', dependsOn: [] },
        { id: 's2', scenario: 'a', skill: 'z', dependsOn: ['s1'] },
      ],
    };
    const d = difficulty(sequence, tablePriors(small));
    expect(d.steps.map((s) => [s.scenario.source, s.scenario.p, s.skill.source, s.skill.p])).toEqual([
      ['smoothed', 0.2, 'backoff', 0.45],
      ['table', 0.5, 'smoothed', 0.1],
    ]);
    expect(d.scenarioNovelty).toBeCloseTo(-Math.log(0.2) - Math.log(0.5), 12);
    expect(d.skillRarity).toBeCloseTo(-Math.log(0.45) - Math.log(0.1), 12);
    expect(d.smoothed).toEqual([
      { kind: 'scenario', name: 'c', given: '' },
      { kind: 'skill', name: 'z', given: 'a' },
    ]);
  });

  it('under the reference table an unknown name costs more than any known one', () => {
    const priors = tablePriors(REFERENCE_TABLE);
    const known: Sequence = { steps: [{ id: 's1', scenario: 'genomics-fasta', skill: 'git-history', dependsOn: [] }] };
    const unknown: Sequence = { steps: [{ id: 's1', scenario: 'quantum-lab-notes', skill: 'ffmpeg-transcode', dependsOn: [] }] };
    const a = difficulty(known, priors);
    const b = difficulty(unknown, priors);
    expect(Number.isFinite(b.total)).toBe(true);
    expect(b.scenarioNovelty).toBeGreaterThan(a.scenarioNovelty);
    expect(b.skillRarity).toBeGreaterThan(a.skillRarity);
    expect(b.model).toBe(REFERENCE_TABLE.version);
  });

  it('counts L in turns from the table and charges an unknown skill the documented default', () => {
    const unknownSkill: Sequence = { steps: [{ id: 's1', scenario: 'a', skill: 'zz', dependsOn: [] }] };
    expect(difficulty(unknownSkill, tablePriors(small)).length).toBe(4);
    expect(difficulty({ steps: [] }, tablePriors(small)).depth).toBe(0);
  });

  it("a length edit raises L by the new step's turns, and the total", () => {
    const priors = tablePriors(REFERENCE_TABLE);
    const parent: Sequence = { steps: [{ id: 's1', scenario: 'web-access-log', skill: 'awk-fields', dependsOn: [] }] };
    const child = insertSteps(parent, 1, [{ id: 's2', scenario: 'web-access-log', skill: 'sort-uniq-count', dependsOn: ['s1'] }]);
    const before = difficulty(parent, priors);
    const after = difficulty(child, priors);
    expect(after.length).toBe(before.length + REFERENCE_TABLE.turns.get('sort-uniq-count')!);
    expect(after.depth).toBe(2);
    expect(after.total).toBeGreaterThan(before.total);
  });

  it('a rarer skill raises skill rarity, leaves scenario novelty alone and changes L by the turns it takes', () => {
    const priors = tablePriors(REFERENCE_TABLE);
    const parent: Sequence = { steps: [{ id: 's1', scenario: 'web-access-log', skill: 'awk-fields', dependsOn: [] }] };
    const child = replaceField(parent, ['s1'], 'skill', ['jq-query']);
    const before = difficulty(parent, priors);
    const after = difficulty(child, priors);
    expect(after.skillRarity).toBeGreaterThan(before.skillRarity);
    expect(after.scenarioNovelty).toBe(before.scenarioNovelty);
    expect(after.length - before.length).toBe(REFERENCE_TABLE.turns.get('jq-query')! - REFERENCE_TABLE.turns.get('awk-fields')!);
  });

  it('noise and layout are attributes: no turn under the reference, while a fitted table can price a pair', () => {
    const priors = tablePriors(REFERENCE_TABLE);
    const parent: Sequence = { steps: [{ id: 's1', scenario: 'web-access-log', skill: 'awk-fields', dependsOn: [] }] };
    const child = replaceField(parent, ['s1'], 'scenario', ['web-access-log+csv+crlf']);
    expect(difficulty(child, priors).length - difficulty(parent, priors).length).toBe(0);
    // A fitted table's per-pair turns override the sum of the parts.
    const fitted = { ...small, pairTurns: new Map([[pairKey('a', 'x'), 7.5]]) };
    expect(difficulty({ steps: [{ id: 's1', scenario: 'a', skill: 'x', dependsOn: [] }] }, tablePriors(fitted)).length).toBe(7.5);
  });

  it('a rarer scenario raises scenario novelty', () => {
    const priors = tablePriors(REFERENCE_TABLE);
    const parent: Sequence = { steps: [{ id: 's1', scenario: 'web-access-log', skill: 'grep-regex', dependsOn: [] }] };
    const child = replaceField(parent, ['s1'], 'scenario', ['mail-spool']);
    expect(difficulty(child, priors).scenarioNovelty).toBeGreaterThan(difficulty(parent, priors).scenarioNovelty);
  });
});
