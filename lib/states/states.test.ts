import { describe, expect, it } from 'vitest';
import {
  canTransition,
  GENERATION_STATES,
  GenerationState as S,
  IllegalTransitionError,
  inGroup,
  IN_PROGRESS_STATES,
  PENDING_STATES,
  SERVABLE_STATES,
  STANDING_STATES,
  stateLabel,
  SUPERSEDABLE_STATES,
  TERMINAL_STATES,
  transition,
  transitionFromAny,
} from './states.ts';

describe('generation state machine', () => {
  it('walks the happy path from planning to released', () => {
    const path = [S.planning, S.modifying, S.awaitingReview, S.approved, S.released];
    for (let i = 1; i < path.length; i++) expect(transition(path[i - 1]!, path[i]!)).toBe(path[i]);
  });

  it('lets a review request changes and Loop 2 run again', () => {
    expect(canTransition(S.awaitingReview, S.changesRequested)).toBe(true);
    expect(canTransition(S.changesRequested, S.modifying)).toBe(true);
  });

  it('withdraws a release to approved and sends a standing generation back to review', () => {
    expect(canTransition(S.released, S.approved)).toBe(true);
    for (const state of STANDING_STATES) expect(canTransition(state, S.awaitingReview)).toBe(true);
  });

  it('refuses moves the machine does not allow, naming both states', () => {
    expect(() => transition(S.planning, S.released)).toThrow(IllegalTransitionError);
    expect(() => transition(S.awaitingReview, S.released)).toThrow('a generation cannot move from awaiting-review to released');
    expect(() => transition('no-such-state', S.failed)).toThrow(IllegalTransitionError);
  });

  it('never moves a terminal generation again, but the undos: a rejection back to review, a superseded one back to where it stood', () => {
    for (const from of TERMINAL_STATES) {
      for (const to of GENERATION_STATES) {
        const undo = (from === S.rejected && to === S.awaitingReview) || (from === S.superseded && inGroup(to, SUPERSEDABLE_STATES));
        expect(canTransition(from, to)).toBe(undo);
      }
    }
  });

  it('can mark every in-progress generation failed, and only supersedes what the group names', () => {
    expect(transitionFromAny(IN_PROGRESS_STATES, S.failed)).toBe(S.failed);
    expect(() => transitionFromAny([S.planning, S.rejected], S.failed)).toThrow(IllegalTransitionError);
    for (const state of GENERATION_STATES) expect(canTransition(state, S.superseded)).toBe(inGroup(state, SUPERSEDABLE_STATES));
  });
});

describe('state groups', () => {
  it('serves released generations only', () => {
    expect([...SERVABLE_STATES]).toEqual([S.released]);
  });

  it('counts in-progress generations as pending but not terminal ones', () => {
    for (const state of IN_PROGRESS_STATES) expect(inGroup(state, PENDING_STATES)).toBe(true);
    for (const state of TERMINAL_STATES) expect(inGroup(state, PENDING_STATES)).toBe(false);
    expect(inGroup(S.released, PENDING_STATES)).toBe(false);
  });

  it('puts every state in the list once', () => {
    expect(new Set(GENERATION_STATES).size).toBe(Object.keys(S).length);
  });

  it('labels a state as a sentence says it', () => {
    expect(stateLabel(S.awaitingReview)).toBe('awaiting review');
  });
});
