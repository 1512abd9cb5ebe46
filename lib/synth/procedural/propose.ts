// The procedural proposer: chooses WHICH steps change and to WHICH catalogue names, with a seeded
// PRNG, and leaves the mechanics to lib/sequence (insertSteps, replaceField, describeEdit).
import { REFERENCE_TABLE, tablePriors } from '../../difficulty/index.ts';
import { describeEdit, insertSteps, nextStepIds, replaceField } from '../../sequence/index.ts';
import type { Axis, Effort, Sequence, Step } from '../../sequence/types.ts';
import type { Plan } from '../types.ts';
import { SCENARIO_NAMES, SKILL_NAMES } from './catalogue.ts';
import { ImportedEditError, isImportedStep } from './imported.ts';
import { createRng, hashSeed, type Rng } from './rng.ts';

export interface ProposeOptions {
  sequence: Sequence;
  axis: Axis;
  effort: Effort;
  seed: number;
  round: number; // 0 for the first proposal; later rounds re-draw after a rejection
}

// Names not yet in the sequence (nor already chosen in this edit) first: novelty is what the
// scenario and skill axes add to the difficulty; repeats only when the catalogue runs out.
function novelName(rng: Rng, catalogue: readonly string[], used: Set<string>, avoid: string): string {
  const fresh = catalogue.filter((n) => !used.has(n) && n !== avoid);
  const name = rng.pick(fresh.length > 0 ? fresh : catalogue.filter((n) => n !== avoid));
  used.add(name);
  return name;
}

export function proposePlan(options: ProposeOptions): Plan {
  const { sequence, axis, effort } = options;
  if (sequence.steps.length === 0) throw new Error('cannot propose an edit of an empty sequence');
  const rng = createRng(hashSeed(options.seed, axis, effort, 'propose', options.round));
  const { child, rationale } = axis === 'length' ? lengthen(sequence, effort, rng) : replace(sequence, axis, effort, rng);
  return { edit: describeEdit(sequence, child, axis, effort), child, rationale };
}

function lengthen(sequence: Sequence, effort: Effort, rng: Rng): { child: Sequence; rationale: string } {
  const scenarios = new Set(sequence.steps.map((s) => s.scenario));
  const skills = new Set(sequence.steps.map((s) => s.skill));
  const newStep = (id: string, dependsOn: string): Step => ({
    id,
    scenario: novelName(rng, SCENARIO_NAMES, scenarios, ''),
    skill: novelName(rng, SKILL_NAMES, skills, ''),
    dependsOn: [dependsOn],
  });

  let child = sequence;
  let inserted: Step[] = [];
  if (effort === 'max') {
    // Up to four steps, each at its own place, each consuming an output of a step before it.
    for (const id of nextStepIds(sequence, rng.int(1, 4))) {
      const at = rng.int(1, child.steps.length);
      const step = newStep(id, rng.pick(child.steps.slice(0, at)).id);
      child = insertSteps(child, at, [step]);
      inserted.push(step);
    }
  } else {
    // One contiguous run: the first consumes the output just before it, the rest chain on.
    const ids = nextStepIds(sequence, effort === 'low' ? 1 : rng.int(2, 3));
    const at = rng.int(1, sequence.steps.length);
    let previous = sequence.steps[at - 1]!.id;
    inserted = ids.map((id) => {
      const step = newStep(id, previous);
      previous = id;
      return step;
    });
    child = insertSteps(sequence, at, inserted);
  }
  const described = inserted.map((s) => `${s.skill} over ${s.scenario} (${s.id}, consuming ${s.dependsOn.join(', ')}'s answer)`).join('; ');
  return {
    child,
    rationale: `Adds ${inserted.length === 1 ? 'a step' : `${inserted.length} steps`}: ${described}, lengthening the chain from ${sequence.steps.length} to ${child.steps.length} steps; each new step can only be solved with the answer it depends on.`,
  };
}

// An imported step is not the procedural engine's to rewrite; only steps it rendered are targets.
function replace(sequence: Sequence, axis: 'scenario' | 'skill', effort: Effort, rng: Rng): { child: Sequence; rationale: string } {
  const steps = sequence.steps.filter((s) => !isImportedStep(s));
  if (steps.length === 0) throw new ImportedEditError(axis, sequence.steps);
  let targets: Step[];
  if (effort === 'low') targets = [rng.pick(withHeadroom(steps, axis, sequence))];
  else if (effort === 'high') {
    const length = Math.min(steps.length, rng.int(2, 3));
    const start = rng.int(0, steps.length - length);
    targets = steps.slice(start, start + length);
  } else {
    const chosen = new Set(rng.shuffle(steps).slice(0, rng.int(1, steps.length)).map((s) => s.id));
    targets = steps.filter((s) => chosen.has(s.id));
  }
  const used = new Set(sequence.steps.map((s) => s[axis]));
  const names = targets.map((s) => harderName(rng, axis, s, used));
  const child = replaceField(sequence, targets.map((s) => s.id), axis, names);
  const kept = axis === 'scenario' ? 'skill' : 'scenario';
  const described = targets.map((s, i) => `${s.id} ${s[axis]} → ${names[i]}`).join(', ');
  return {
    child,
    rationale: `Replaces the ${axis} of ${targets.length === 1 ? 'one step' : `${targets.length} steps`} (${described}) with rarer ${axis}s the sequence has not used, keeping every ${kept} and dependency, so the same techniques must be applied to less familiar data.`,
  };
}

const REFERENCE = tablePriors(REFERENCE_TABLE);

// The step's share of the off-policy difficulty: −ln p(σ) − ln p(κ | σ) under the reference table.
function stepCost(scenario: string, skill: string): number {
  return -Math.log(REFERENCE.scenario(scenario).p) - Math.log(REFERENCE.skill(skill, scenario).p);
}

// Evolution should make the environment harder: among names the sequence has not used, prefer
// the ones that make this step rarer under the reference distribution (seeded choice among the
// rarer half), falling back to the rarest available when none is rarer than the current name.
function harderName(rng: Rng, axis: 'scenario' | 'skill', step: Step, used: Set<string>): string {
  const catalogue = axis === 'scenario' ? SCENARIO_NAMES : SKILL_NAMES;
  const costOf = (name: string) => (axis === 'scenario' ? stepCost(name, step.skill) : stepCost(step.scenario, name));
  const current = costOf(step[axis]);
  const fresh = catalogue.filter((n) => !used.has(n) && n !== step[axis]);
  const pool = fresh.length > 0 ? fresh : catalogue.filter((n) => n !== step[axis]);
  const harder = pool.filter((n) => costOf(n) > current).sort((a, b) => costOf(b) - costOf(a));
  const name = harder.length > 0 ? rng.pick(harder.slice(0, Math.max(1, Math.ceil(harder.length / 2)))) : maxBy(pool, costOf);
  used.add(name);
  return name;
}

// Steps that can still be made rarer along the axis; all of them when none can.
function withHeadroom(steps: Step[], axis: 'scenario' | 'skill', sequence: Sequence): Step[] {
  const used = new Set(sequence.steps.map((s) => s[axis]));
  const catalogue = axis === 'scenario' ? SCENARIO_NAMES : SKILL_NAMES;
  const open = steps.filter((step) => {
    const cost = (name: string) => (axis === 'scenario' ? stepCost(name, step.skill) : stepCost(step.scenario, name));
    return catalogue.some((n) => !used.has(n) && cost(n) > cost(step[axis]));
  });
  return open.length > 0 ? open : steps;
}

function maxBy(names: string[], score: (name: string) => number): string {
  return names.reduce((best, name) => (score(name) > score(best) ? name : best));
}
