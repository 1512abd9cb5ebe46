// A shell script with its comments removed and everything else kept byte for byte: what a
// simulated policy runs (and an annotator labels) is the reference solution's commands, not the
// solution author's notes (`# s2: awk-fields over …` names the step and what it is meant to do).
//
// It is an allow-list: a `#` is dropped, with the rest of its line, only where bash itself reads
// it as a comment — at the start of a word, outside quotes, outside a here-document's body and
// outside backquotes. Anything it cannot follow (an unterminated quote or here-document) leaves
// the script as it was: the comment stays visible rather than a command being cut.

// What the scanner is inside of, innermost last: quotes, `$( )`, `${ }` and backquotes nest as
// bash nests them, so `"$(echo "a #b")"` is one quoted word and its `#` no comment.
type Frame = { kind: "'" | '"' | "$'" | '`' | '${' } | { kind: '$('; parens: number };

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
}

// Characters after which a `#` begins a word (bash's metacharacters that end one, bar `<` `>`:
// `>#x` is left alone, which keeps more than bash would but never cuts a command).
const WORD_BREAKS = new Set([' ', '\t', ';', '&', '|', '(', ')']);

// eslint-disable-next-line no-restricted-syntax -- a signal caught below, never seen by a caller: not a domain error
class Unsure extends Error {}

export function stripShellComments(script: string): string {
  try {
    return strip(script);
  } catch (err) {
    if (err instanceof Unsure) return script;
    throw err;
  }
}

function strip(script: string): string {
  const kept: string[] = [];
  const frames: Frame[] = [];
  let heredocs: PendingHeredoc[] = [];
  let inBody: PendingHeredoc | null = null;
  let continued = false; // the previous kept line ends in a backslash-newline

  for (const line of script.split('\n')) {
    if (inBody) {
      kept.push(line);
      const candidate = inBody.stripTabs ? line.replace(/^\t+/, '') : line;
      if (candidate === inBody.delimiter) inBody = heredocs.shift() ?? null;
      continue;
    }
    const scanned = scanLine(line, frames);
    heredocs = heredocs.concat(scanned.heredocs);
    const text = scanned.commentAt === null ? line : line.slice(0, scanned.commentAt).replace(/[ \t]+$/, '');
    // A line that was only a comment goes, unless the line before continues onto it: then an
    // empty line keeps that continuation ending where bash ended it.
    if (text.trim() !== '' || scanned.commentAt === null || continued) kept.push(text);
    continued = frames.length === 0 && scanned.commentAt === null && endsInContinuation(line);
    if (frames.length === 0 && heredocs.length > 0) inBody = heredocs.shift()!;
  }
  if (frames.length > 0 || inBody !== null || heredocs.length > 0) throw new Unsure();
  return kept.join('\n');
}

function endsInContinuation(line: string): boolean {
  const trailing = /\\+$/.exec(line)?.[0].length ?? 0;
  return trailing % 2 === 1;
}

interface ScannedLine {
  commentAt: number | null; // where a top-level comment starts
  heredocs: PendingHeredoc[];
}

// Scans one line, updating `frames` (what is still open at its end) in place.
function scanLine(line: string, frames: Frame[]): ScannedLine {
  const heredocs: PendingHeredoc[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    const next = line[i + 1];
    const top = frames.at(-1);
    if (top?.kind === "'") {
      if (c === "'") frames.pop();
      continue;
    }
    if (top?.kind === "$'" || top?.kind === '`') {
      if (c === '\\') i++;
      else if (c === (top.kind === '`' ? '`' : "'")) frames.pop();
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (top?.kind === '"') {
      // Inside double quotes only substitutions open; `'` and `$'` are plain characters.
      if (c === '"') frames.pop();
      else if (c === '`' || (c === '$' && next !== "'")) i += Math.max(0, openedAt(c, next, frames));
      continue;
    }
    // Code: the top level, or inside $( ) or ${ }.
    const opened = openedAt(c, next, frames);
    if (opened >= 0) i += opened;
    else if (top?.kind === '${') {
      if (c === '}') frames.pop();
    } else if (top?.kind === '$(' && c === '(') top.parens++;
    else if (top?.kind === '$(' && c === ')') {
      if (top.parens > 0) top.parens--;
      else frames.pop();
    } else if (c === '<' && next === '<' && line[i + 2] === '<') {
      i += 2; // a here-string: its word is on this line
    } else if (c === '<' && next === '<') {
      // A here-document inside $( ) would need its body followed there too: not attempted.
      if (top) throw new Unsure();
      const heredoc = heredocAt(line, i + 2);
      heredocs.push(heredoc.pending);
      i = heredoc.end - 1;
    } else if (c === '#' && (i === 0 || WORD_BREAKS.has(line[i - 1]!))) {
      // A comment inside $( ) runs to the end of its line as well; it is kept, not followed.
      return { commentAt: top ? null : i, heredocs };
    }
  }
  return { commentAt: null, heredocs };
}

// Opens the quote or substitution starting with `c` (and `next`): how many characters beyond
// `c` it took, or -1 when `c` opens nothing.
function openedAt(c: string, next: string | undefined, frames: Frame[]): number {
  if (c === "'" || c === '"' || c === '`') {
    frames.push({ kind: c });
    return 0;
  }
  if (c !== '$') return -1;
  if (next === "'") frames.push({ kind: "$'" });
  else if (next === '(') frames.push({ kind: '$(', parens: 0 });
  else if (next === '{') frames.push({ kind: '${' });
  else return -1;
  return 1;
}

// `<<WORD`, `<<-WORD`, `<< 'WORD'`, `<<"WORD"`, `<<\WORD`: the delimiter with its quoting removed.
function heredocAt(line: string, start: number): { pending: PendingHeredoc; end: number } {
  let i = start;
  const stripTabs = line[i] === '-';
  if (stripTabs) i++;
  while (line[i] === ' ' || line[i] === '\t') i++;
  const word = /^(?:'([^']+)'|"([^"$`\\]+)"|\\?([A-Za-z0-9_.-]+))/.exec(line.slice(i));
  if (!word) throw new Unsure();
  const delimiter = word[1] ?? word[2] ?? word[3]!;
  return { pending: { delimiter, stripTabs }, end: i + word[0].length };
}
