// The state machines of generations, attempts and lineages (browser-safe as a whole).
// The public API of lib/states: other modules import it from here, never from its files (README, Layers).
export {
  GenerationState,
  LINEAGE_STATUSES,
  VALIDATED_STATES,
  AttemptState,
  LineageStatus,
  LineageWorkStatus,
  IN_PROGRESS_STATES,
  INITIAL_STATE,
  transition,
  inGroup,
  STANDING_STATES,
  SUPERSEDABLE_STATES,
  DECIDED_STATE,
  REVIEWABLE_STATES,
  BACKTESTABLE_STATES,
  SERVABLE_STATES,
  PENDING_STATES,
  UNSERVED_STATES,
  stateLabel,
} from './states.ts';
