// Environment items judged by Envolve's own code (lib/rubric/offline), in-process and without an
// LLM: they count as judged whether or not an LLM is configured. Each names its check as
// name@version, so a changed check is a new item version.
import type { RubricItemDef } from '../types.ts';

const spelling: RubricItemDef = {
  key: 'spelling',
  title: 'instruction.md and task.toml are spelt correctly',
  description:
    'The agent reads the instruction word by word; a misspelt noun ("ledger entrys") reads as carelessness at best and as a ' +
    'different thing at worst. Every prose word of instruction.md and of the text values of task.toml is checked against ' +
    'the Hunspell English dictionary (nspell, dictionary-en), leaving out code spans, paths, identifiers and numbers, and ' +
    "accepting the catalogue's own names and nouns and a short list of terminal words.",
  check: null,
  question: null,
  builtinCheck: 'spelling@1',
  appliesTo: 'environment',
};

const solutionPrintsNoAnswer: RubricItemDef = {
  key: 'solution_prints_no_expected_answer',
  title: 'solution/solve.sh does not print the expected answers',
  description:
    'An oracle that echoes the answers passes whatever the data says, so its pass proves nothing about the task. The ' +
    'expected answers are the values of tests/expected.json and the literal strings the tests compare against; none may ' +
    'appear in what solve.sh prints (echo, printf, a here-document), unless instruction.md gives the value to the agent.',
  check: null,
  question: null,
  builtinCheck: 'printed-answers@1',
  appliesTo: 'environment',
};

const testsReadNoSolution: RubricItemDef = {
  key: 'tests_do_not_read_solution',
  title: 'The tests do not read the reference solution',
  description:
    'A verifier that reads /solution or solution/ grades against the oracle instead of the agent, and breaks in an ' +
    "agent's trial, where no solution is mounted. No line of a file in tests/ (comments aside) may refer to either path.",
  check: null,
  question: null,
  builtinCheck: 'tests-read-solution@1',
  appliesTo: 'environment',
};

export const OFFLINE_ITEMS: RubricItemDef[] = [spelling, solutionPrintsNoAnswer, testsReadNoSolution];
