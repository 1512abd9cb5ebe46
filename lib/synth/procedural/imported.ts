// An imported seed (any Harbor task) as the procedural engine sees it: one opaque step whose
// scenario and skill it cannot name. The names are honest placeholders, so D does not price the
// step (lib/difficulty/opaque.ts): the task's D is unknown until a reviewer describes it or
// Claude extracts its steps.
import { OPAQUE_PREFIX } from '../../difficulty/index.ts';
import type { Sequence, Step } from '../../sequence/index.ts';
import { ProposalRefused } from '../types.ts';

export const IMPORTED_PREFIX = OPAQUE_PREFIX;
export const IMPORTED_STEP_ID = 's1';

// An opaque imported step, or a step a reviewer described an imported task with.
export const isImportedStep = (step: Step): boolean =>
  step.origin === 'imported' || step.scenario.startsWith(IMPORTED_PREFIX) || step.skill.startsWith(IMPORTED_PREFIX);

export function importedSequence(taskName: string): Sequence {
  const name = `${IMPORTED_PREFIX}${taskName}`;
  return { steps: [{ id: IMPORTED_STEP_ID, scenario: name, skill: name, dependsOn: [], summary: 'the original task, as imported' }] };
}

// Why the offline engine refuses scenario and skill edits of an imported step, and the remedy.
export class ImportedEditError extends ProposalRefused {
  constructor(axis: 'scenario' | 'skill', steps: Step[]) {
    super(
      `${axis} edits of the imported step${steps.length === 1 ? '' : 's'} ${steps.map((s) => s.id).join(', ')} need Claude: ` +
        `the procedural synthesiser cannot rewrite a task it did not generate (run with --synth anthropic, or evolve this seed along --axis length offline)`,
    );
    this.name = 'ImportedEditError';
  }
}
