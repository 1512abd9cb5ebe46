// Plausible mistakes: deterministic rewrites of a correct command of the kind a competent but
// careless agent makes. Each applies to the first place it matches; the simulated policy picks
// one of those that apply with its seeded generator, so the same seed makes the same mistake.
export interface Mutation {
  name: string;
  pattern: RegExp;
  rewrite: (match: RegExpExecArray) => string;
}

const bump = (n: string | undefined, by = 1) => String(Number(n) + by);

export const MUTATIONS: Mutation[] = [
  { name: 'off-by-one-record', pattern: /\bNR ?== ?(\d+)/, rewrite: (m) => `NR == ${bump(m[1])}` },
  { name: 'off-by-one-header-skip', pattern: /\btail -n \+(\d+)/, rewrite: (m) => `tail -n +${bump(m[1])}` },
  { name: 'off-by-one-head', pattern: /\bhead -n (\d+)/, rewrite: (m) => `head -n ${bump(m[1])}` },
  { name: 'wrong-field-awk', pattern: /\bprint \$(\d+)/, rewrite: (m) => `print $${bump(m[1])}` },
  { name: 'wrong-field-cut', pattern: /\bcut -f(\d+)/, rewrite: (m) => `cut -f${bump(m[1])}` },
  { name: 'wrong-sort-key', pattern: /-k(\d+),(\d+)(?=\s)/, rewrite: (m) => `-k${bump(m[1])},${bump(m[2])}` },
  { name: 'wrong-sort-order', pattern: /-k(\d+),(\d+)nr\b/, rewrite: (m) => `-k${m[1]},${m[2]}n` },
  { name: 'lexical-not-numeric', pattern: /-k(\d+),(\d+)n(r?)\b/, rewrite: (m) => `-k${m[1]},${m[2]}${m[3]}` },
  { name: 'lexical-not-numeric', pattern: /\bsort -n\b/, rewrite: () => 'sort' },
  { name: 'wrong-sort-order', pattern: /\bDESC\b/, rewrite: () => 'ASC' },
  { name: 'wrong-sort-order', pattern: /\bmax_by\b/, rewrite: () => 'min_by' },
  { name: 'wrong-sort-order', pattern: /\bsort -r\b/, rewrite: () => 'sort' },
  { name: 'lexical-not-numeric', pattern: /CAST\(("?\w+"?) AS (REAL|INTEGER)\)/, rewrite: (m) => m[1]! },
  { name: 'rounding', pattern: /%\.(\d)f/, rewrite: (m) => (m[1] === '0' ? '%d' : `%.${Number(m[1]) - 1}f`) },
  { name: 'skipped-output-write', pattern: /> ?"\$out"/, rewrite: () => '> /dev/null' },
];

export interface MutatedCommand {
  body: string;
  mutation: string;
}

// `pick` chooses an index below its argument (the policy's seeded generator).
export function mutate(body: string, pick: (n: number) => number): MutatedCommand {
  const applicable = MUTATIONS.map((m) => ({ m, match: m.pattern.exec(body) })).filter((a): a is { m: Mutation; match: RegExpExecArray } => a.match !== null);
  if (applicable.length === 0) return skipLastCommand(body);
  const { m, match } = applicable[pick(applicable.length)]!;
  return { body: body.slice(0, match.index) + m.rewrite(match) + body.slice(match.index + match[0].length), mutation: m.name };
}

// Nothing recognisable to get wrong: the agent stops one command short (typically the write).
function skipLastCommand(body: string): MutatedCommand {
  const lines = body.split('\n');
  let last = lines.length - 1;
  while (last > 0 && (lines[last]!.trim() === '' || lines[last]!.trim().startsWith('#'))) last--;
  return { body: lines.slice(0, last).join('\n') || 'true', mutation: 'skipped-last-command' };
}
