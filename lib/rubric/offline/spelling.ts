// The spelling check of generated text: instruction.md and task.toml's text values, word by word,
// against the Hunspell English dictionary (nspell with dictionary-en). A misspelt noun in the
// instruction ("ledger entrys") is what an agent reads; the LLM's typos question is not always asked.
// An imported task lengthened offline (renderChained) keeps its author's text above the chained
// steps: only the section Envolve appended is its generated text, and only that is checked.
//
// Not words, so never checked: code spans and fenced code, URLs, paths and file names, identifiers
// (snake_case, camelCase, ACRONYMS, anything with a digit or a symbol), numbers and single letters.
// Accepted beside the dictionary: the catalogue's own names and nouns (catalogueVocabulary) and a
// small committed list of terminal words (terminal-words.ts).
import type NSpell from 'nspell';
import { parse } from 'smol-toml';
import type { TaskBundle } from '../../bundle/index.ts';
import { catalogueVocabulary, readChain } from '../../synth/index.ts';
import { TERMINAL_WORDS } from './terminal-words.ts';
import { fileText, type BuiltinCheck } from './types.ts';

type Speller = ReturnType<typeof NSpell>;

let speller: Promise<Speller> | null = null;

// Loaded once per process, on first use: the dictionary is about 1 MB to parse.
function englishSpeller(): Promise<Speller> {
  speller ??= (async () => {
    const [{ default: nspell }, { default: dictionary }] = await Promise.all([import('nspell'), import('dictionary-en')]);
    const spell = nspell(dictionary);
    for (const word of [...TERMINAL_WORDS, ...catalogueVocabulary()]) spell.add(word);
    return spell;
  })().catch((err: unknown) => {
    // A failed load is not remembered: the next check tries again.
    speller = null;
    throw err;
  });
  return speller;
}

export interface Misspelling {
  word: string;
  file: string;
  count: number;
  context: string; // the first line it occurs on, shortened
}

// Markdown without what is not prose: fenced blocks, code spans (left as … so a reported line
// still reads), URLs and link targets.
function proseOf(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, ' ')
    .replace(/`[^`\n]*`/g, '…')
    .replace(/\]\([^)]*\)/g, '] ')
    .replace(/\b(?:https?|ftp|file):\/\/\S+/g, ' ');
}

// The words of a prose text worth checking, by the rules in the file comment.
export function wordsToCheck(prose: string): string[] {
  const words: string[] = [];
  for (const raw of prose.split(/\s+/)) {
    const token = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    // Paths, file names, options, numbers, identifiers: anything but letters, hyphens and apostrophes.
    if (!/^[\p{L}'’-]+$/u.test(token)) continue;
    const parts = token.split('-');
    // A hyphenated token with a one-letter or empty part is a notation (rw-r--r--), not compound words.
    if (parts.length > 1 && parts.some((p) => p.length < 2)) continue;
    for (const part of parts) {
      const word = part.replace(/['’]s$/u, '').replace(/^['’]+|['’]+$/gu, '');
      if (word.length < 2) continue;
      // An upper-case letter after the first marks an acronym (HTTP, DATA) or camelCase identifier.
      if (/\p{Lu}/u.test(word.slice(1))) continue;
      words.push(word);
    }
  }
  return words;
}

// task.toml's string values, one per line; a value holding JSON (the procedural sequence) is data.
function tomlText(toml: string): string {
  let doc: unknown;
  try {
    doc = parse(toml);
  } catch {
    return '';
  }
  const strings: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      if (!/^\s*[[{]/.test(value)) strings.push(value);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(doc);
  return strings.join('\n');
}

function shorten(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > 100 ? `${trimmed.slice(0, 97)}...` : trimmed;
}

export async function misspellings(sources: ReadonlyArray<{ file: string; prose: string }>): Promise<Misspelling[]> {
  const spell = await englishSpeller();
  const found = new Map<string, Misspelling>();
  for (const { file, prose } of sources) {
    for (const line of prose.split('\n')) {
      for (const word of wordsToCheck(line)) {
        if (spell.correct(word)) continue;
        const key = `${file}\u0000${word}`;
        const seen = found.get(key);
        if (seen) seen.count += 1;
        else found.set(key, { word, file, count: 1, context: shorten(line) });
      }
    }
  }
  return [...found.values()];
}

// The chained section of a lengthened imported task, or null when the bundle is not one (or its
// instruction was edited outside Envolve, when all of it is checked).
function chainedSection(bundle: TaskBundle, instruction: string): string | null {
  try {
    const chained = readChain(bundle);
    return chained ? Buffer.from(instruction, 'utf8').subarray(chained.chain.baseBytes.instruction).toString('utf8') : null;
  } catch {
    return null;
  }
}

// The title heading names the task (an identifier such as `claude-seed`, kept when a child is
// renamed), so it is not prose.
const withoutTitle = (markdown: string): string => markdown.replace(/^# [^\n]*\n?/, '');

export function proseSources(bundle: TaskBundle): { file: string; prose: string }[] {
  const whole = fileText(bundle, 'instruction.md');
  const chained = whole === null ? null : chainedSection(bundle, whole);
  const instruction = chained ?? whole;
  // A chained task's task.toml is its author's, unchanged.
  const toml = chained === null ? fileText(bundle, 'task.toml') : null;
  return [
    ...(instruction === null ? [] : [{ file: 'instruction.md', prose: proseOf(withoutTitle(instruction)) }]),
    ...(toml === null ? [] : [{ file: 'task.toml', prose: tomlText(toml) }]),
  ];
}

const REPORTED = 20;

export const spellingCheck: BuiltinCheck = async (bundle) => {
  const sources = proseSources(bundle);
  if (sources.length === 0) return { passed: true, detail: 'no instruction.md or task.toml to check' };
  const wrong = await misspellings(sources);
  const checked = sources.reduce((n, s) => n + wordsToCheck(s.prose).length, 0);
  if (wrong.length === 0)
    return { passed: true, detail: `${checked} words of ${sources.map((s) => s.file).join(' and ')} checked against the English dictionary: none misspelt` };
  const spell = await englishSpeller();
  const lines = wrong.slice(0, REPORTED).map((m) => {
    const suggestions = spell.suggest(m.word).slice(0, 3);
    return `${m.file}: '${m.word}'${m.count > 1 ? ` (${m.count}×)` : ''}${suggestions.length ? `, did you mean ${suggestions.map((s) => `'${s}'`).join(' or ')}?` : ''} in: ${m.context}`;
  });
  const more = wrong.length > REPORTED ? [`... and ${wrong.length - REPORTED} more`] : [];
  // The first line names the words: it is what a run's error summary and the modifier's feedback show.
  const named =
    wrong
      .slice(0, 5)
      .map((m) => `'${m.word}'`)
      .join(', ') + (wrong.length > 5 ? ', ...' : '');
  const headline = `${wrong.length} misspelt word${wrong.length === 1 ? '' : 's'} of ${checked} checked: ${named}`;
  return { passed: false, detail: [headline, ...lines, ...more].join('\n') };
};
