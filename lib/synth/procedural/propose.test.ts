// The procedural proposer keeps making the environment harder: length edits deepen the
// dependency chain, scenario and skill edits only ever raise D and always change a step's domain
// or base skill (never only its layout, noise or delivery), and when no catalogue name can raise
// it any more the proposer says the axis is exhausted instead of swapping sideways.
import { describe, expect, it } from 'vitest';
import { difficulty, REFERENCE_TABLE, tablePriors } from '../../difficulty/index.ts';
import { chainDepth, checkEdit } from '../../sequence/index.ts';
import type { Axis, Effort, Sequence } from '../../sequence/types.ts';
import { AxisExhausted } from '../types.ts';
import { essenceOf, proposePlan } from './propose.ts';
import { asksOfItsScenario, misfit, SCENARIO_NAMES, SKILL_NAMES } from './catalogue.ts';
import { newSeedSequence } from './seed-sequence.ts';
import { SEED_TASKS } from './seeds.ts';

const D = (sequence: Sequence) => difficulty(sequence, tablePriors(REFERENCE_TABLE)).total;
const MARGIN = 0.05;

function evolve(sequence: Sequence, axis: Axis, effort: Effort, generations: number, seed: number, margin = MARGIN) {
  const history = [sequence];
  for (let g = 1; g <= generations; g++) {
    const parent = history.at(-1)!;
    try {
      const plan = proposePlan({ sequence: parent, axis, effort, seed: seed * 1000 + g, round: 0, minGain: margin });
      expect(checkEdit(parent, plan.child, axis, effort)).toEqual([]);
      history.push(plan.child);
    } catch (err) {
      if (err instanceof AxisExhausted) return { history, exhaustedAt: g, reason: err.message };
      throw err;
    }
  }
  return { history, exhaustedAt: null, reason: '' };
}

describe('the procedural proposer', () => {
  it('15 low-effort length generations take a depth-1 seed to a chain 16 steps deep', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const start = newSeedSequence(seed, { steps: 1 });
      expect(chainDepth(start)).toBe(1);
      const { history, exhaustedAt } = evolve(start, 'length', 'low', 15, seed);
      expect(exhaustedAt).toBeNull();
      expect(history.map(chainDepth)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
      expect(history.at(-1)!.steps).toHaveLength(16);
    }
  });

  it('high and max length edits deepen the chain by every step they insert', () => {
    for (const effort of ['high', 'max'] as const) {
      const { history } = evolve(newSeedSequence(9, { steps: 2 }), 'length', effort, 5, 9);
      for (let i = 1; i < history.length; i++) {
        const added = history[i]!.steps.length - history[i - 1]!.steps.length;
        expect(chainDepth(history[i]!)).toBe(chainDepth(history[i - 1]!) + added);
      }
    }
  });

  it('from every shipped seed, low-effort generations raise D each time by more than the margin: 15 on length, at least 5 on scenario and skill', () => {
    for (const task of SEED_TASKS) {
      for (const axis of ['length', 'scenario', 'skill'] as const) {
        const { history, exhaustedAt, reason } = evolve(task.sequence, axis, 'low', 15, task.seed);
        if (axis === 'length') expect(exhaustedAt, `${task.name} ${axis}: ${reason}`).toBeNull();
        expect(history.length - 1, `${task.name} ${axis}: ${reason}`).toBeGreaterThanOrEqual(5);
        for (let i = 1; i < history.length; i++) expect(D(history[i]!) - D(history[i - 1]!)).toBeGreaterThan(MARGIN);
      }
    }
  });

  it('never makes an edit whose only change is a layout, noise or delivery: 20 lineages × 15 generations on each axis', () => {
    let edits = 0;
    const efforts: Effort[] = ['low', 'high', 'max'];
    for (let lineage = 1; lineage <= 20; lineage++) {
      const start = newSeedSequence(lineage, { steps: 1 + (lineage % 2) });
      for (const axis of ['length', 'scenario', 'skill'] as const) {
        // Half the lineages with no margin at all: the rule, not the price, keeps attributes out.
        const { history } = evolve(start, axis, efforts[lineage % 3]!, 15, lineage, lineage % 2 === 0 ? 0 : MARGIN);
        for (let g = 1; g < history.length; g++) {
          const parent = new Map(history[g - 1]!.steps.map((s) => [s.id, s]));
          for (const step of history[g]!.steps) {
            const before = parent.get(step.id);
            if (!before) {
              // An inserted step asks a new question over a plain domain with a plain skill.
              expect(essenceOf('scenario', step.scenario)).toBe(step.scenario);
              expect(essenceOf('skill', step.skill)).toBe(step.skill);
              edits++;
              continue;
            }
            for (const field of ['scenario', 'skill'] as const) {
              if (before[field] === step[field]) continue;
              edits++;
              expect(field, `lineage ${lineage} generation ${g}: ${before[field]} → ${step[field]}`).toBe(axis);
              expect(essenceOf(field, step[field]), `lineage ${lineage} generation ${g}: ${before[field]} → ${step[field]}`).not.toBe(
                essenceOf(field, before[field]),
              );
            }
          }
        }
      }
    }
    // The simulation made real edits on every axis (not an empty pass).
    expect(edits).toBeGreaterThan(20 * 3 * 3);
  });

  it('reports the axis exhausted where the catalogue ends, never a sideways swap', () => {
    const cost = (scenario: string, skill: string) => D({ steps: [{ id: 's1', scenario, skill, dependsOn: [] }] });
    const hardestScenario = [...SCENARIO_NAMES]
      .filter((n) => misfit(n, 'awk-fields') === null)
      .sort((a, b) => cost(b, 'awk-fields') - cost(a, 'awk-fields'))[0]!;
    const hardestSkill = [...SKILL_NAMES].filter((n) => misfit('dns-zone', n) === null).sort((a, b) => cost('dns-zone', b) - cost('dns-zone', a))[0]!;
    const atTop = (scenario: string, skill: string): Sequence => ({ steps: [{ id: 's1', scenario, skill, dependsOn: [] }] });
    expect(evolve(atTop(hardestScenario, 'awk-fields'), 'scenario', 'low', 1, 1)).toMatchObject({
      exhaustedAt: 1,
      reason: expect.stringMatching(/no scenario in the catalogue makes any of the 1 editable step harder/),
    });
    expect(evolve(atTop('dns-zone', hardestSkill), 'skill', 'low', 1, 1)).toMatchObject({
      exhaustedAt: 1,
      reason: expect.stringMatching(/no skill in the catalogue/),
    });
  });

  it('never edits the scenario of a step whose skill asks the same of any data (a line count per file, a checksum)', () => {
    expect(asksOfItsScenario('wc-count')).toBe(false);
    expect(asksOfItsScenario('sha256-checksum+gz')).toBe(false);
    expect(asksOfItsScenario('awk-fields')).toBe(true);
    expect(asksOfItsScenario('tar-archive')).toBe(true); // its selector comes from the scenario's keys
    const mixed: Sequence = {
      steps: [
        { id: 's1', scenario: 'sensor-telemetry', skill: 'wc-count', dependsOn: [] },
        { id: 's2', scenario: 'web-access-log', skill: 'awk-fields', dependsOn: [] },
      ],
    };
    for (const seed of [1, 2, 3, 4, 5]) {
      const { history } = evolve(mixed, 'scenario', 'low', 4, seed);
      for (const sequence of history) expect(sequence.steps[0]!.scenario).toBe('sensor-telemetry');
    }
    expect(evolve({ steps: [mixed.steps[0]!] }, 'scenario', 'low', 1, 1)).toMatchObject({
      exhaustedAt: 1,
      reason: expect.stringMatching(/s1 \(wc-count\) asks the same of any data, so only a skill edit changes it/),
    });
  });

  it('offers only names the synthesiser can build with the step: no layout for a column export', () => {
    const { history } = evolve({ steps: [{ id: 's1', scenario: 'sensor-telemetry', skill: 'jq-query', dependsOn: [] }] }, 'scenario', 'low', 15, 3);
    for (const sequence of history) expect(misfit(sequence.steps[0]!.scenario, 'jq-query')).toBeNull();
  });
});
