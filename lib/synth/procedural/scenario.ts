// A scenario σ: the situation a step works in. It owns the vocabulary of its records, their
// native file format and its domain rule (which rows of the file count), and knows how to turn
// that format back into the common TSV view (key, value, ISO time, category, text) of the rows
// that count, with standard tools, which every skill's solution uses.
import type { Rng } from './rng.ts';
import type { DataRecord, FileRecord, ValueShape } from './records.ts';
import { hashSeed } from './rng.ts';

export interface FieldNouns {
  record: string; // what one record is ("request", "transaction")
  records: string; // its plural, spelled out: "ledger entries", not "ledger entrys"
  key: string;
  value: string;
  time: string;
  category: string;
  text: string;
}

/**
 * What counts in a domain: web requests from the liveness probe are not traffic, a reversed ledger
 * entry and its reversal cancel out, a commented-out cron job does not run. The native file holds
 * rows the rule excludes, woven among the counted ones, so the same skill asks a different
 * question in another domain, and a solution that ignores the rule answers wrongly.
 */
export interface DomainRule {
  name: string; // kebab-case, what the rule is: 'liveness-probes-excluded'
  describe: string; // the rule as the instruction states it (Markdown, one or two sentences)
  column: string; // the attribute's column in CSV, TSV and JSON Lines exports
  columnMeaning: string; // what that column holds, for the export's format sentence
  // The file's rows for these counted records: each counted record with its attribute, and the
  // rows the rule excludes, deterministic in the records and meeting every key, category and text.
  weave(records: DataRecord[], value: ValueShape): FileRecord[];
  // A pipeline stage reading the six-field TSV of `parse` and printing the first five fields of
  // the rows that count.
  filter: string;
}

export interface Scenario {
  name: string;
  title: string; // "Web server access log"
  fileName: string; // the native file's name, e.g. access.log
  format: string; // one sentence describing the native layout, shown in the instruction
  nouns: FieldNouns;
  columns: { key: string; value: string; time: string; category: string; text: string }; // names in JSON/CSV exports
  value: ValueShape;
  categories: readonly string[];
  texts: readonly string[];
  makeKeys(rng: Rng): string[]; // the entity pool of one step (shared by all its candidate datasets)
  rule: DomainRule;
  renderRows(rows: FileRecord[]): string; // the native file of these rows, ending in a newline
  // A shell pipeline reading one native file on stdin and printing one TSV line per row, counted
  // or not: key, value (as displayed), time (YYYY-MM-DDTHH:MM:SSZ), category, text, attribute.
  parse: string;
  // The native file of these counted records, with the rows the rule excludes woven in.
  render(records: DataRecord[]): string;
  // `parse` then the rule's filter: one TSV line per record that counts, the five fields above.
  extract: string;
}

export type ScenarioDefinition = Omit<Scenario, 'render' | 'extract'>;

export function defineScenario(definition: ScenarioDefinition): Scenario {
  return {
    ...definition,
    render: (records) => definition.renderRows(definition.rule.weave(records, definition.value)),
    extract: `${definition.parse} | ${definition.rule.filter}`,
  };
}

/** A rule filter keeping the rows whose attribute passes an awk condition on $6. */
export const keepWhere = (condition: string): string => `awk -F'\\t' -v OFS='\\t' '${condition} { print $1, $2, $3, $4, $5 }'`;

/**
 * The rows of a rule whose excluded rows are ghosts of counted records: before the first record
 * of every key, category and text (so every question a skill asks meets one), the rows `ghostRows`
 * makes from a copy of it dated ten seconds before its key's earliest record. A ghost carries the largest value the domain has,
 * so totals, sums, counts above a threshold and high percentiles all move when it is counted.
 */
export function weaveGhosts(
  records: DataRecord[],
  value: ValueShape,
  countedAttr: (record: DataRecord) => string,
  ghostRows: (ghost: DataRecord) => FileRecord[],
): FileRecord[] {
  const seen = new Set<string>();
  const first = (label: string) => (seen.has(label) ? false : (seen.add(label), true));
  // A file need not be in time order (two hosts' logs one after the other): the ghost goes ten
  // seconds before its key's earliest record, wherever that stands, so the key's span moves too.
  const earliest = new Map<string, number>();
  for (const r of records) earliest.set(r.key, Math.min(r.time, earliest.get(r.key) ?? r.time));
  return records.flatMap((r) => {
    const isSource = [first(`k\u0000${r.key}`), first(`c\u0000${r.category}`), first(`t\u0000${r.text}`)].some(Boolean);
    const counted = { ...r, attr: countedAttr(r) };
    if (!isSource) return [counted];
    return [...ghostRows({ ...r, value: value.max, time: earliest.get(r.key)! - 10 }), counted];
  });
}

/**
 * The commonest rule: every counted row carries `counted` in the rule's column, and each ghost is one
 * row carrying `excluded` (a commented-out line, a disabled flag, a failed read).
 */
export function flaggedRows(counted: string, excluded: string): Pick<DomainRule, 'weave' | 'filter'> {
  return {
    weave: (records, value) =>
      weaveGhosts(
        records,
        value,
        () => counted,
        (ghost) => [{ ...ghost, attr: excluded }],
      ),
    filter: keepWhere(`$6 == "${counted}"`),
  };
}

/** A deterministic choice among `options` by a record's own content. */
export function pickFor(record: DataRecord, options: readonly string[], salt: string): string {
  return options[hashSeed(salt, record.key, record.time, record.text) % options.length]!;
}

export function lines(rows: string[]): string {
  return rows.map((row) => `${row}\n`).join('');
}

// awk prologue shared by extracts that meet English month names.
export const AWK_MONTHS = 'split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec",mn," ");for(i=1;i<=12;i++)M[mn[i]]=sprintf("%02d",i)';

// A step's entity pool: `count` distinct keys from `make`, in generation order.
export function distinctKeys(rng: Rng, count: number, make: (rng: Rng) => string): string[] {
  const keys = new Set<string>();
  while (keys.size < count) keys.add(make(rng));
  return [...keys];
}

export const pad = (n: number, width: number): string => String(n).padStart(width, '0');
