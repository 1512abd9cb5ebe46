// The hard-coded answer check: solution/solve.sh must compute the answers, not print them. The
// answers are the values of tests/expected.json (and of any JSON file in tests/, such as a chained
// task's tests/chain.json) and the literal strings the tests compare the
// agent's output against; one of them appearing in what solve.sh prints (echo, printf, a here-doc)
// fails the item. A value instruction.md gives the agent (a step id, a threshold) is an input, and a
// one-character value (0, 1, a letter) says too little to be anyone's answer, so neither counts.
import type { TaskBundle } from '../../bundle/index.ts';
import { fileText, type BuiltinCheck } from './types.ts';

const SOLUTION = 'solution/solve.sh';
const EXPECTED = 'tests/expected.json';

function scalars(value: unknown): string[] {
  if (typeof value === 'string' || typeof value === 'number') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(scalars);
  if (value && typeof value === 'object') return Object.values(value).flatMap(scalars);
  return [];
}

// A comment line of a shell or Python script: it compares nothing.
const isComment = (line: string) => /^\s*#/.test(line);

// Quoted literals and numbers beside a comparison (= == != -eq in a shell test, == != in Python),
// the values of "key": value pairs (an EXPECTED dict or a JSON literal in a test script), and
// everything inside a multi-line EXPECTED = [...] block.
const COMPARED = [
  /(?:==|!=|\s=|-eq)\s*(?:"([^"\n]+)"|'([^'\n]+)'|(-?\d[\d.]*)\b)/g,
  /(?:"([^"\n]+)"|'([^'\n]+)'|\b(-?\d[\d.]*))\s*(?:==|!=|=\s|-eq)/g,
  /["'][\w .-]+["']\s*:\s*(?:"([^"\n]+)"|'([^'\n]+)'|(-?\d[\d.]*)\b)/g,
];

// Every quoted literal and number of a line inside an EXPECTED = [...] / {...} block.
const LITERAL = /"([^"\n]+)"|'([^'\n]+)'|(?<![\w.])(-?\d[\d.]*)(?![\w.])/g;
const EXPECTED_BLOCK = /^\s*\w*expect\w*\s*=\s*[[{(]\s*$/i;

function comparedLiterals(script: string): string[] {
  const found: string[] = [];
  let inExpectedBlock = false;
  for (const line of script.split('\n')) {
    if (isComment(line)) continue;
    if (EXPECTED_BLOCK.test(line)) {
      inExpectedBlock = true;
      continue;
    }
    if (inExpectedBlock) {
      if (/^\s*[\]})]/.test(line)) inExpectedBlock = false;
      else for (const match of line.matchAll(LITERAL)) found.push((match[1] ?? match[2] ?? match[3])!);
      continue;
    }
    for (const pattern of COMPARED) {
      for (const match of line.matchAll(pattern)) {
        const value = match[1] ?? match[2] ?? match[3];
        if (value !== undefined) found.push(value);
      }
    }
  }
  return found;
}

// The answers the tests hold, each with where it came from.
export function expectedAnswers(bundle: TaskBundle): { value: string; source: string }[] {
  const answers: { value: string; source: string }[] = [];
  const tests = bundle.files.filter((f) => f.path.startsWith('tests/'));
  for (const file of tests.filter((f) => f.path.endsWith('.json'))) {
    try {
      for (const value of scalars(JSON.parse(file.content.toString('utf8')))) {
        for (const line of [value, ...value.split('\n')]) answers.push({ value: line.trim(), source: file.path });
      }
    } catch {
      // Not JSON: the literal values of the test scripts still count.
    }
  }
  for (const file of tests.filter((f) => !f.path.endsWith('.json'))) {
    for (const value of comparedLiterals(file.content.toString('utf8'))) answers.push({ value: value.trim(), source: file.path });
  }
  return answers.filter((a) => a.value.length >= 2 && !a.value.startsWith('/') && /[\p{L}\p{N}]/u.test(a.value));
}

// What solve.sh prints: the arguments of echo and printf, and the bodies of here-documents.
export function printedText(script: string): string[] {
  const printed: string[] = [];
  const lines = script.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isComment(line)) continue;
    for (const match of line.matchAll(/(?:^|[\s;&|({])(?:echo|printf)\s+([^|;&>]*)/g)) printed.push(match[1]!.replace(/["']/g, ''));
    const heredoc = /<<-?\s*(["']?)(\w+)\1/.exec(line);
    if (heredoc) {
      const end = heredoc[2]!;
      while (i + 1 < lines.length && lines[i + 1]!.trim() !== end) printed.push(lines[++i]!);
      i++;
    }
  }
  return printed;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Whole-token occurrence: no letter, digit, underscore or dot right before or after.
const occursIn = (value: string, text: string) => new RegExp(`(?<![\\w.])${escape(value)}(?![\\w.])`).test(text);

export const printedAnswersCheck: BuiltinCheck = async (bundle) => {
  const solution = fileText(bundle, SOLUTION);
  if (solution === null) return { passed: true, detail: `no ${SOLUTION}: nothing prints an answer` };
  const answers = expectedAnswers(bundle);
  if (answers.length === 0)
    return { passed: true, detail: `no expected answers found (${EXPECTED} or another JSON file in tests/, or literals the tests compare against)` };
  const instruction = fileText(bundle, 'instruction.md') ?? '';
  const printed = printedText(solution);
  const hits = new Map<string, string>();
  for (const { value, source } of answers) {
    if (hits.has(value) || occursIn(value, instruction)) continue;
    if (printed.some((text) => occursIn(value, text))) hits.set(value, source);
  }
  if (hits.size === 0) {
    const sources = [...new Set(answers.map((a) => a.source))].join(', ');
    return {
      passed: true,
      detail: `none of ${new Set(answers.map((a) => a.value)).size} expected answers (from ${sources}) is printed literally by ${SOLUTION}`,
    };
  }
  const lines = [...hits].map(([value, source]) => `${SOLUTION} prints the expected answer '${value}' (from ${source}) literally`);
  return { passed: false, detail: lines.join('\n') };
};
