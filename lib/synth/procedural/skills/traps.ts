// Data shaping shared by the skills' near misses: each helper edits a step's records in place so a
// typical wrong solution computes a wrong answer on them (a tie at the top, a selector that recurs,
// a file whose lines are out of time order), deterministically from the step's rng.
import type { DataRecord } from '../records.ts';
import type { Rng } from '../rng.ts';

// Adds `amount` smallest units to `group`, spread evenly, so no single value becomes an outlier.
export function addSpread(group: DataRecord[], amount: number): void {
  if (group.length === 0) throw new Error('no records to add to');
  const share = Math.floor(amount / group.length);
  group.forEach((r, i) => (r.value += share + (i < amount % group.length ? 1 : 0)));
}

// At least `count` records have `field` = `value`: records whose field differs are relabelled, the
// ones `avoid` does not protect first.
export function ensureCount(
  rng: Rng,
  records: DataRecord[],
  field: 'key' | 'category',
  value: string,
  count: number,
  avoid: (r: DataRecord) => boolean = () => false,
): void {
  let have = records.filter((r) => r[field] === value).length;
  for (const r of rng.shuffle(records)) {
    if (have >= count) return;
    if (r[field] !== value && !avoid(r)) {
      r[field] = value;
      have++;
    }
  }
  if (have < count) throw new Error(`cannot give ${count} records the ${field} ${value}: only ${records.length} records`);
}

// Totals of `value` per `by`, smallest units.
export function totalsBy(records: DataRecord[], by: (r: DataRecord) => string): Map<string, number> {
  const totals = new Map<string, number>();
  for (const r of records) totals.set(by(r), (totals.get(by(r)) ?? 0) + r.value);
  return totals;
}

// Two hosts' logs concatenated: each record goes to host A or B, and the file holds A's lines then
// B's. `inB` records are forced to B and `inA` to A, so the first match in the file is not the
// earliest one and the last is not the latest.
export function mergedHosts(rng: Rng, records: DataRecord[], inA: ReadonlySet<DataRecord>, inB: ReadonlySet<DataRecord>): DataRecord[] {
  const a: DataRecord[] = [];
  const b: DataRecord[] = [];
  for (const r of records) (inA.has(r) ? a : inB.has(r) ? b : rng.next() < 0.5 ? a : b).push(r);
  return [...a, ...b];
}
