import { describe, expect, it } from 'vitest';
import { RETRY_BUDGET_FACTOR } from '../lib/sandbox/run-checks.ts';
import { proceduralBudgets } from '../lib/synth/procedural/render.ts';
import {
  BUILTIN_PLAN_CHECKS,
  candidateValidationMs,
  DEFAULT_LOOPS,
  evolutionMs,
  limitMs,
  rubricChecksMs,
  SAFETY_FACTOR,
  taskTomlBudgets,
  validationMs,
  withBudgetFactor,
} from './budgets.ts';

describe('test limits from the product budgets', () => {
  it('reads a task.toml’s budgets, and the product’s defaults for what it leaves out', () => {
    expect(taskTomlBudgets('[agent]\ntimeout_sec = 60\n[verifier]\ntimeout_sec = 30\n')).toEqual({ buildSec: 600, agentSec: 60, verifierSec: 30 });
    expect(taskTomlBudgets('')).toEqual({ buildSec: 600, agentSec: 600, verifierSec: 600 });
    expect(() => taskTomlBudgets('[agent]\ntimeout_sec = -1\n')).toThrow(/task.toml: invalid settings/);
  });

  it('multiplies what a test waits on in sequence by the safety factor, and refuses a limit no timer can hold', () => {
    expect(limitMs(1_000, 3_000)).toBe(4_000 * SAFETY_FACTOR);
    expect(() => limitMs(2 ** 31)).toThrow(/longer than a timer can wait/);
  });

  it('gives each rubric check its budget and its one larger retry', () => {
    expect(rubricChecksMs(1, 2)).toBeGreaterThan(2 * (1 + RETRY_BUDGET_FACTOR) * 1000);
    expect(rubricChecksMs(3, 2)).toBe(3 * rubricChecksMs(1, 2));
  });

  it('counts a validation as a build and one trial, and a retry exit’s factor on the trial only', () => {
    const task = { buildSec: 300, agentSec: 60, verifierSec: 30 };
    expect(validationMs(task)).toBe(390_000);
    expect(validationMs(withBudgetFactor(task, 8))).toBe((300 + 8 * 90) * 1000);
    expect(candidateValidationMs(task, { extraChecks: 100 })).toBeGreaterThan(validationMs(task));
  });

  it('grows an evolution with its generations, its loops and, on the length axis, its steps', () => {
    const one = evolutionMs(1, { steps: 2 });
    // Each later generation has one more ancestor whose solution the counter-check runs.
    expect(evolutionMs(3, { steps: 2 })).toBeGreaterThan(3 * one);
    expect(one).toBe(
      DEFAULT_LOOPS.maxPlanRounds * rubricChecksMs(BUILTIN_PLAN_CHECKS) +
        DEFAULT_LOOPS.maxModifyRounds * candidateValidationMs(proceduralBudgets(2), { ancestors: 1 }),
    );
    expect(evolutionMs(1, { steps: 2, loops: { maxPlanRounds: DEFAULT_LOOPS.maxPlanRounds, maxModifyRounds: 1 } })).toBeLessThan(one);
    expect(evolutionMs(1, { steps: 2, lengthGrows: true })).toBeGreaterThan(one);
    expect(one).toBeGreaterThanOrEqual(DEFAULT_LOOPS.maxModifyRounds * validationMs(proceduralBudgets(2)));
  });
});
