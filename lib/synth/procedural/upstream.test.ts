// Steps that compute with an earlier step's answer: the instruction says where the number comes
// from, the data is one directory drawn around it, the answer follows it, the proposer adds such
// a step after a step answering an integer, and every sequence it makes fits together.
import { describe, expect, it } from 'vitest';
import { difficulty, REFERENCE_TABLE, tablePriors } from '../../difficulty/index.ts';
import type { Sequence, Step } from '../../sequence/types.ts';
import { AxisExhausted } from '../types.ts';
import { chainMisfit, INTEGER_ANSWER_SKILL_NAMES, UPSTREAM_SKILL_NAMES } from './catalogue.ts';
import { proposePlan } from './propose.ts';
import { recoverSequence } from './recover.ts';
import { renderEnvironment, renderEnvironmentWithSteps } from './render.ts';
import { renderStep } from './render-step.ts';
import { reviewPlan } from './review-plan.ts';
import { newSeedSequence } from './seed-sequence.ts';
import { SCENARIOS } from './scenarios/index.ts';

const upstreamStep: Step = { id: 's1', scenario: 'web-access-log', skill: 'date-arithmetic', dependsOn: [] };
const computing: Step = { id: 's2', scenario: 'payments-ledger', skill: 'above-upstream', dependsOn: ['s1'] };
const D = (sequence: Sequence) => difficulty(sequence, tablePriors(REFERENCE_TABLE)).total;

describe('a step computing with its upstream answer', () => {
  it('names the upstream file in its instruction, reads it in its solution and has one data directory', () => {
    const step = renderStep(computing, 5, new Map([['s1', '3600']]));
    expect(step.instruction).toContain('Let T be the number the earlier step wrote on the first line of `/app/out/s1.txt`');
    expect(step.instruction).toContain('strictly greater than T');
    expect(step.solve).toContain(`t=$(awk 'NR == 1 { print $1; exit }' /app/out/s1.txt)`);
    expect(step.solve).toContain('d=/app/data/s2\n');
    expect(step.datasets.map((d) => d.dir)).toEqual(['s2']);
    expect(step.answer).toMatch(/^\d+$/);
  });

  it('answers differently when the upstream answer differs', () => {
    const answers = ['7', '40', '3600', '86400'].map((t) => renderStep(computing, 5, new Map([['s1', t]])).answer);
    expect(new Set(answers).size).toBeGreaterThan(1);
  });

  it('has the off-by-one and ignores-upstream near misses, neither the reference, the latter never reading T', () => {
    const step = renderStep(computing, 5, new Map([['s1', '40']]));
    expect(step.nearMisses.map((m) => m.name)).toEqual(['off-by-one', 'ignores-upstream']);
    for (const miss of step.nearMisses) expect(miss.solve).not.toBe(step.solve);
    expect(step.nearMisses[0]!.solve).toContain('>= t * 100');
    expect(step.nearMisses[1]!.solve).not.toContain('/app/out/s1.txt');
    // The domain rule still applies: the parent question reads every row.
    expect(step.parentQuestion?.name).toBe('parent-question');
  });

  it('is recovered from its built files, its dependency read from the file its solution reads T from', () => {
    const sequence: Sequence = { steps: [upstreamStep, computing, { id: 's3', scenario: 'dns-zone', skill: 'above-upstream+gz', dependsOn: ['s2'] }] };
    expect(recoverSequence(renderEnvironment(sequence, { seed: 4, name: 'recovered' }))).toEqual(sequence);
  });

  it('refuses an upstream answer that is not an integer, and a step with no single upstream', () => {
    expect(() => renderStep(computing, 5, new Map([['s1', '10.0.0.7 12']]))).toThrow(/not an integer/);
    expect(() => renderStep({ ...computing, dependsOn: [] }, 5, new Map())).toThrow(/exactly one earlier procedural step/);
  });

  it('chains: every skill said to answer an integer does so in every domain, so a computing step can follow it', () => {
    for (const skill of INTEGER_ANSWER_SKILL_NAMES) {
      for (const domain of SCENARIOS) {
        const sequence: Sequence = {
          steps: [
            { id: 's1', scenario: domain.name, skill: skill === 'above-upstream' ? 'grep-regex' : skill, dependsOn: [] },
            { id: 's2', scenario: domain.name, skill, dependsOn: ['s1'] },
            { id: 's3', scenario: 'sensor-telemetry', skill: 'above-upstream', dependsOn: ['s2'] },
          ],
        };
        const { steps } = renderEnvironmentWithSteps(sequence, { seed: 11, name: 'integer-chain' });
        expect(steps[1]!.answer.split('\n')[0]!.split(/\s+/)[0], `${skill} over ${domain.name}`).toMatch(/^\d+$/);
      }
    }
  });
});

describe('the length proposer and computing steps', () => {
  it('adds a computing step after a step answering an integer, and D rises by more than the margin', () => {
    const parent: Sequence = { steps: [upstreamStep] };
    for (const seed of [1, 2, 3, 4, 5]) {
      const plan = proposePlan({ sequence: parent, axis: 'length', effort: 'low', seed, round: 0, minGain: 0.05 });
      const added = plan.child.steps.find((s) => s.id !== 's1')!;
      expect(added.skill).toBe('above-upstream');
      expect(added.dependsOn).toEqual(['s1']);
      expect(D(plan.child) - D(parent)).toBeGreaterThan(0.05);
      expect(reviewPlan(parent, plan, []).reasons).toEqual([]);
      const rendered = renderEnvironmentWithSteps(plan.child, { seed, name: 'lengthened' });
      expect(rendered.steps[1]!.instruction).toContain('`/app/out/s1.txt`');
    }
  });

  it('after a computing step, adds a step picking its folder by its count with a skill answering an integer, then computes again', () => {
    let sequence: Sequence = { steps: [upstreamStep] };
    for (let g = 1; g <= 6; g++) sequence = proposePlan({ sequence, axis: 'length', effort: 'low', seed: 40 + g, round: 0, minGain: 0.05 }).child;
    const added = sequence.steps.slice(1).map((s) => s.skill);
    expect(added.filter((_, i) => i % 2 === 0)).toEqual(['above-upstream', 'above-upstream', 'above-upstream']);
    for (const skill of added.filter((_, i) => i % 2 === 1)) {
      expect(INTEGER_ANSWER_SKILL_NAMES).toContain(skill);
      expect(UPSTREAM_SKILL_NAMES).not.toContain(skill);
    }
    expect(() => renderEnvironmentWithSteps(sequence, { seed: 46, name: 'alternating' })).not.toThrow();
  });

  it('after a step answering anything else, adds a step picking its folder by that answer', () => {
    const parent: Sequence = { steps: [{ id: 's1', scenario: 'web-access-log', skill: 'sort-uniq-count', dependsOn: [] }] };
    for (const seed of [1, 2, 3, 4, 5]) {
      const plan = proposePlan({ sequence: parent, axis: 'length', effort: 'low', seed, round: 0, minGain: 0.05 });
      expect(UPSTREAM_SKILL_NAMES).not.toContain(plan.child.steps.find((s) => s.id !== 's1')!.skill);
    }
  });

  it('never proposes a sequence whose computing steps do not fit their upstream: 12 lineages × 8 generations on each axis', () => {
    let computingSteps = 0;
    for (let lineage = 1; lineage <= 12; lineage++) {
      for (const axis of ['length', 'scenario', 'skill'] as const) {
        let sequence = newSeedSequence(lineage, { steps: 2 });
        for (let g = 1; g <= 8; g++) {
          let plan;
          try {
            plan = proposePlan({ sequence, axis, effort: (['low', 'high', 'max'] as const)[g % 3]!, seed: lineage * 100 + g, round: 0, minGain: 0.05 });
          } catch (err) {
            if (err instanceof AxisExhausted) break;
            throw err;
          }
          expect(chainMisfit(plan.child), `lineage ${lineage} ${axis} generation ${g}`).toBeNull();
          sequence = plan.child;
        }
        computingSteps += sequence.steps.filter((s) => s.skill.startsWith('above-upstream')).length;
        expect(() => renderEnvironmentWithSteps(sequence, { seed: lineage, name: 'lineage' })).not.toThrow();
      }
    }
    expect(computingSteps).toBeGreaterThan(0);
  });

  it('the reviewer refuses a computing step after a step that does not answer an integer', () => {
    const parent: Sequence = { steps: [{ id: 's1', scenario: 'web-access-log', skill: 'sort-uniq-count', dependsOn: [] }] };
    const child: Sequence = { steps: [...parent.steps, { ...computing }] };
    const plan = { edit: { axis: 'length' as const, effort: 'low' as const, inserted: ['s2'], replaced: [] }, child, rationale: '' };
    expect(reviewPlan(parent, plan, []).reasons.join(' ')).toMatch(/s2: above-upstream takes a number from the answer of s1/);
  });
});
