// The built-in checks by the name@version a rubric item stores in builtinCheck.
import { printedAnswersCheck } from './printed-answers.ts';
import { spellingCheck } from './spelling.ts';
import { testsReadSolutionCheck } from './tests-read-solution.ts';
import type { BuiltinCheck } from './types.ts';

export const BUILTIN_CHECKS: Readonly<Record<string, BuiltinCheck>> = {
  'spelling@1': spellingCheck,
  'printed-answers@1': printedAnswersCheck,
  'tests-read-solution@1': testsReadSolutionCheck,
};

export type { BuiltinCheck, BuiltinCheckResult } from './types.ts';
