// The uniform intermediate representation every scenario generates and every skill computes on:
// records with an entity key, a numeric value, a timestamp, a category and a free-text token.
// Scenarios render records in their native format; skills decide delivery and the question.
import type { Rng } from './rng.ts';

export interface DataRecord {
  key: string; // the entity (client IP, account, sensor …); path-safe: [A-Za-z0-9._:@-]
  value: number; // integer in the scenario's smallest unit (cents when it shows 2 decimals)
  time: number; // Unix seconds, UTC
  category: string; // path-safe, no spaces
  text: string; // path-safe token, no spaces and no '/'
}

// A row of a native file: a record with the attribute its domain's rule reads (a user agent, a
// folder flag, a transaction id and what it reverses …). Counted records and the records the rule
// excludes are both rows; only the rule tells them apart.
export interface FileRecord extends DataRecord {
  attr: string; // path-safe; may hold single spaces
}

export interface ValueShape {
  decimals: 0 | 2;
  min: number; // in smallest units, ≥ 1 display unit so bc never prints a bare leading dot
  max: number;
}

// 2024-03-01T00:00:00Z: a fixed epoch keeps every rendered date reproducible.
const START = Date.UTC(2024, 2, 1) / 1000;

export function formatValue(units: number, decimals: 0 | 2): string {
  if (decimals === 0) return String(units);
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function isoTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

export interface GenerateOptions {
  count: number;
  keys: readonly string[];
  categories: readonly string[];
  texts: readonly string[];
  value: ValueShape;
  // Selectors the step's question uses: each is forced onto a few records so the answer is never empty.
  ensureCategory: string;
  ensureKey: string;
}

// Chronological records (strictly increasing times), like the logs and exports they imitate.
export function generateRecords(rng: Rng, options: GenerateOptions): DataRecord[] {
  let time = START + rng.int(0, 86_400);
  const records: DataRecord[] = [];
  for (let i = 0; i < options.count; i++) {
    time += rng.int(30, 5_400);
    records.push({
      key: rng.pick(options.keys),
      value: rng.int(options.value.min, options.value.max),
      time,
      category: rng.pick(options.categories),
      text: rng.pick(options.texts),
    });
  }
  for (let i = 0; i < 3; i++) {
    rng.pick(records).category = options.ensureCategory;
    rng.pick(records).key = options.ensureKey;
  }
  return records;
}

// Byte order, the order `LC_ALL=C sort` uses, for every tie-break the instructions state.
export function byteCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
