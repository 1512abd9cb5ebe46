// A scenario σ: the situation a step works in. It owns the vocabulary of its records and their
// native file format, and knows how to turn that format back into the common TSV view
// (key, value, ISO time, category, text) with standard tools, which every skill's solution uses.
import type { Rng } from './rng.ts';
import type { DataRecord, ValueShape } from './records.ts';

export interface FieldNouns {
  record: string; // what one record is ("request", "transaction")
  records: string; // its plural, spelled out: "ledger entries", not "ledger entrys"
  key: string;
  value: string;
  time: string;
  category: string;
  text: string;
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
  render(records: DataRecord[]): string; // the native file, ending in a newline
  // A shell pipeline reading one native file on stdin and printing one TSV line per record:
  // key, value (as displayed), time (YYYY-MM-DDTHH:MM:SSZ), category, text.
  extract: string;
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
