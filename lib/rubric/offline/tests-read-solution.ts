// The check that the tests do not read the reference solution: a verifier that opens /solution or
// solution/ grades against the oracle's own files (or breaks when they are absent, as they are in
// an agent's trial), so its reward says nothing about the agent's work. Comment lines do not count.
import { type BuiltinCheck } from './types.ts';

// /solution or solution/ as a path, not inside another name (my_solution/, /app/solutions).
const SOLUTION_PATH = /(?<![\w.-])(?:\/solution(?![\w.-])|(?:\.{1,2}\/)?solution\/)/;

export const testsReadSolutionCheck: BuiltinCheck = async (bundle) => {
  const tests = bundle.files.filter((f) => f.path.startsWith('tests/'));
  if (tests.length === 0) return { passed: true, detail: 'no tests/ files' };
  const hits: string[] = [];
  for (const file of tests) {
    file.content
      .toString('utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(#|\/\/)/.test(line) || !SOLUTION_PATH.test(line)) return;
        hits.push(`${file.path}:${i + 1} reads the solution: ${line.trim().slice(0, 120)}`);
      });
  }
  if (hits.length === 0) return { passed: true, detail: `none of the ${tests.length} files in tests/ refers to /solution or solution/` };
  return { passed: false, detail: hits.join('\n') };
};
