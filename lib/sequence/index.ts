export * from './types.ts';
export { structuralViolations } from './structure.ts';
export { nextStepId, nextStepIds } from './ids.ts';
export { insertSteps, replaceField } from './edit.ts';
export { diffSequences, describeEdit, type SequenceDiff } from './diff.ts';
export { checkEdit } from './check.ts';
export { chooseAxis } from './axis-policy.ts';
export { parseSequence, SequenceParseError } from './parse.ts';
export { chainDepth, stepDepths } from './depth.ts';
