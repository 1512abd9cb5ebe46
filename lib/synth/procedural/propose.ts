// The procedural proposer: chooses WHICH steps change and to WHICH catalogue names, with a seeded
// PRNG, and leaves the mechanics to lib/sequence (insertSteps, replaceField, describeEdit).
import { REFERENCE_TABLE, scenarioParts, skillParts, tablePriors } from '../../difficulty/index.ts';
import { chainDepth, describeEdit, insertSteps, nextStepIds, replaceField, stepDepths } from '../../sequence/index.ts';
import type { Axis, Effort, Sequence, Step } from '../../sequence/index.ts';
import { AxisExhausted, type Plan } from '../types.ts';
import {
  asksOfItsScenario,
  BASE_SKILL_NAMES,
  chainMisfit,
  DOMAIN_NAMES,
  INTEGER_ANSWER_SKILL_NAMES,
  misfit,
  SCENARIO_NAMES,
  SKILL_NAMES,
  UPSTREAM_SKILL_NAMES,
} from './catalogue.ts';
import { ImportedEditError, isImportedStep } from './imported.ts';
import { createRng, hashSeed, type Rng } from './rng.ts';

export interface ProposeOptions {
  sequence: Sequence;
  axis: Axis;
  effort: Effort;
  seed: number;
  round: number; // 0 for the first proposal; later rounds re-draw after a rejection
  minGain: number; // each replaced step must get harder by more than this (the plan gate's margin)
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
  const { child, rationale } = axis === 'length' ? lengthen(sequence, effort, rng) : replace(sequence, axis, effort, rng, options.minGain);
  return { edit: describeEdit(sequence, child, axis, effort), child, rationale };
}

const FOLDER_SKILL_NAMES = BASE_SKILL_NAMES.filter((name) => !UPSTREAM_SKILL_NAMES.includes(name));
const INTEGER_FOLDER_SKILL_NAMES = FOLDER_SKILL_NAMES.filter((name) => INTEGER_ANSWER_SKILL_NAMES.includes(name));
const computesWithUpstream = (step: Step): boolean => UPSTREAM_SKILL_NAMES.includes(essenceOf('skill', step.skill));
const answersInteger = (step: Step): boolean => !isImportedStep(step) && INTEGER_ANSWER_SKILL_NAMES.includes(essenceOf('skill', step.skill));

function lengthen(sequence: Sequence, effort: Effort, rng: Rng): { child: Sequence; rationale: string } {
  const scenarios = new Set(sequence.steps.map((s) => s.scenario));
  const skills = new Set(sequence.steps.map((s) => s.skill));
  const newStep = (id: string, consumed: Step): Step => ({
    id,
    // A new step starts from a plain domain and skill (native layout, clean data, files as they
    // are): the scenario and skill axes are where layouts, noise and deliveries come in.
    scenario: novelName(rng, DOMAIN_NAMES, scenarios, ''),
    // After a step answering an integer, the new step computes with that number (a threshold
    // taken from it); after a computing step, it picks its folder by that count with a skill that
    // answers an integer itself, so the step after it computes again; after any other step it
    // picks its folder by the answer.
    skill: novelName(
      rng,
      answersInteger(consumed) ? (computesWithUpstream(consumed) ? INTEGER_FOLDER_SKILL_NAMES : UPSTREAM_SKILL_NAMES) : FOLDER_SKILL_NAMES,
      skills,
      '',
    ),
    dependsOn: [consumed.id],
  });

  // Every inserted step consumes the output of a step at the end of the current critical path,
  // so the dependency chain deepens by one per inserted step (not a wider, shallower DAG).
  let child = sequence;
  let inserted: Step[] = [];
  if (effort === 'max') {
    // Up to four steps, each at its own place after the step it consumes.
    for (const id of nextStepIds(sequence, rng.int(1, 4))) {
      const tip = deepestStepIndex(child, rng);
      const step = newStep(id, child.steps[tip]!);
      child = insertSteps(child, rng.int(tip + 1, child.steps.length), [step]);
      inserted.push(step);
    }
  } else {
    // One contiguous run after a deepest step: the first consumes its output, the rest chain on.
    const ids = nextStepIds(sequence, effort === 'low' ? 1 : rng.int(2, 3));
    const tip = deepestStepIndex(sequence, rng);
    let previous = sequence.steps[tip]!;
    inserted = ids.map((id) => {
      const step = newStep(id, previous);
      previous = step;
      return step;
    });
    child = insertSteps(sequence, rng.int(tip + 1, sequence.steps.length), inserted);
  }
  const described = inserted.map((s) => `${s.skill} over ${s.scenario} (${s.id}, consuming ${s.dependsOn.join(', ')}'s answer)`).join('; ');
  return {
    child,
    rationale: `Adds ${inserted.length === 1 ? 'a step' : `${inserted.length} steps`}: ${described}, lengthening the sequence from ${sequence.steps.length} to ${child.steps.length} steps and its dependency chain from ${chainDepth(sequence)} to ${chainDepth(child)}; each new step can only be solved with the answer it depends on.`,
  };
}

// An imported step is not the procedural engine's to rewrite; only steps it rendered are targets,
// and only those with headroom: a name on the axis that makes the step harder by more than the
// margin. With none, the axis is exhausted for this sequence — said so, never a sideways swap.
function replace(sequence: Sequence, axis: 'scenario' | 'skill', effort: Effort, rng: Rng, minGain: number): { child: Sequence; rationale: string } {
  const steps = sequence.steps.filter((s) => !isImportedStep(s));
  if (steps.length === 0) throw new ImportedEditError(axis, sequence.steps);
  const used = new Set(sequence.steps.map((s) => s[axis]));
  const open = steps.filter((step) => harderNames(axis, sequence, step, minGain).length > 0);
  if (open.length === 0) {
    const blind = axis === 'scenario' ? steps.filter((s) => !asksOfItsScenario(s.skill)) : [];
    throw new AxisExhausted(
      axis,
      `no ${axis} in the catalogue makes any of the ${steps.length} editable step${steps.length === 1 ? '' : 's'} harder by more than ${minGain} (D ${stepsCost(steps).toFixed(2)} over those steps)${
        blind.length > 0
          ? `; ${blind.map((s) => `${s.id} (${s.skill})`).join(', ')} ask${blind.length === 1 ? 's' : ''} the same of any data, so only a skill edit changes ${blind.length === 1 ? 'it' : 'them'}`
          : ''
      }`,
    );
  }
  let targets: Step[];
  if (effort === 'low') targets = [rng.pick(open)];
  else if (effort === 'high') targets = openSpan(sequence, open, rng);
  else {
    const chosen = new Set(
      rng
        .shuffle(open)
        .slice(0, rng.int(1, open.length))
        .map((s) => s.id),
    );
    targets = open.filter((s) => chosen.has(s.id));
  }
  // One target at a time, each checked against the names already chosen (a skill edit of a step
  // and of the step computing with its answer must still fit together); a target left with no
  // fitting name keeps its own. The first target always has one: it is open in the parent.
  let child = sequence;
  const chosen: Array<{ step: Step; name: string }> = [];
  for (const target of targets) {
    const name = harderName(rng, axis, child, target, used, minGain);
    if (name === null) continue;
    child = replaceField(child, [target.id], axis, [name]);
    chosen.push({ step: target, name });
  }
  targets = chosen.map((c) => c.step);
  const names = chosen.map((c) => c.name);
  const kept = axis === 'scenario' ? 'skill' : 'scenario';
  const described = targets.map((s, i) => `${s.id} ${s[axis]} → ${names[i]}`).join(', ');
  return {
    child,
    rationale: `Replaces the ${axis} of ${targets.length === 1 ? 'one step' : `${targets.length} steps`} (${described}) with rarer ${axis}s, keeping every ${kept} and dependency, so the same techniques must be applied to less familiar data.`,
  };
}

// High effort: a contiguous run (2–3 steps where possible) of steps with headroom.
function openSpan(sequence: Sequence, open: Step[], rng: Rng): Step[] {
  const isOpen = new Set(open.map((s) => s.id));
  const first = rng.pick(open).id;
  const start = sequence.steps.findIndex((s) => s.id === first);
  const span = [sequence.steps[start]!];
  const want = rng.int(2, 3);
  for (let i = start + 1; i < sequence.steps.length && span.length < want && isOpen.has(sequence.steps[i]!.id); i++) span.push(sequence.steps[i]!);
  return span;
}

const REFERENCE = tablePriors(REFERENCE_TABLE);

// The step's share of the off-policy difficulty under the reference table: its turns plus
// −ln p(σ) − ln p(κ | σ).
function stepCost(scenario: string, skill: string): number {
  return REFERENCE.turns(skill, scenario) - Math.log(REFERENCE.scenario(scenario).p) - Math.log(REFERENCE.skill(skill, scenario).p);
}

function stepsCost(steps: Step[]): number {
  return steps.reduce((sum, s) => sum + stepCost(s.scenario, s.skill), 0);
}

/**
 * The part of a name an edit on the axis must change: a scenario's domain (its records, its
 * questions and its domain rule), a skill's base technique. Layout, noise and delivery are
 * attributes an agent undoes with one command: they may ride along with a real change, never be
 * the whole edit.
 */
export function essenceOf(axis: 'scenario' | 'skill', name: string): string {
  return axis === 'scenario' ? (scenarioParts(name)?.domain ?? name) : (skillParts(name)?.base ?? name);
}

// Catalogue names on the axis that change the step's domain or base skill, make it harder by more
// than `minGain`, and that the synthesiser can build with the step's other name, least hard first.
// A step whose skill asks the same of any data has no scenario edit: only a skill edit changes it.
function harderNames(axis: 'scenario' | 'skill', sequence: Sequence, step: Step, minGain: number): string[] {
  if (axis === 'scenario' && !asksOfItsScenario(step.skill)) return [];
  const catalogue = axis === 'scenario' ? SCENARIO_NAMES : SKILL_NAMES;
  const pair = (name: string): [string, string] => (axis === 'scenario' ? [name, step.skill] : [step.scenario, name]);
  const costOf = (name: string) => stepCost(...pair(name));
  const current = costOf(step[axis]);
  const essence = essenceOf(axis, step[axis]);
  return catalogue
    .filter((n) => essenceOf(axis, n) !== essence && costOf(n) - current > minGain && misfit(...pair(n)) === null)
    .filter((n) => axis === 'scenario' || chainMisfit(replaceField(sequence, [step.id], axis, [n])) === null)
    .sort((a, b) => costOf(a) - costOf(b) || (a < b ? -1 : 1));
}

// A seeded choice among the few least-hard names above the margin, preferring names the sequence
// has not used yet (novelty): each generation climbs one small step, so the catalogue lasts as
// many generations as it has difficulty levels instead of jumping to its rarest names at once.
const CLIMB_CHOICES = 2;
function harderName(rng: Rng, axis: 'scenario' | 'skill', sequence: Sequence, step: Step, used: Set<string>, minGain: number): string | null {
  const harder = harderNames(axis, sequence, step, minGain);
  if (harder.length === 0) return null;
  const fresh = harder.filter((n) => !used.has(n));
  const pool = fresh.length > 0 ? fresh : harder;
  const name = rng.pick(pool.slice(0, CLIMB_CHOICES));
  used.add(name);
  return name;
}

// The index of a step at the end of a longest dependency chain (a seeded choice among ties).
function deepestStepIndex(sequence: Sequence, rng: Rng): number {
  const depths = stepDepths(sequence);
  const deepest = Math.max(...depths.values());
  const tips = sequence.steps.flatMap((s, i) => (depths.get(s.id) === deepest ? [i] : []));
  return rng.pick(tips);
}
