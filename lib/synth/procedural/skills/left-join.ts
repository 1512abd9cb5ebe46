// A left join with a default: every record counts, those whose key the lookup table lacks under
// `unassigned`. The table also maps keys with no records to a region of their own, so an inner
// join (loses the unassigned records) and an outer join (prints an empty region) both go wrong.
import type { Skill } from '../skill.ts';
import { byName, distinctKeysOf, nativeFile } from './shaping.ts';

const REGIONS = ['north', 'south', 'east', 'west', 'central'];

export function regionCounts(keys: string[], region: ReadonlyMap<string, string>): string {
  const counts = new Map<string, number>();
  for (const key of keys) {
    const name = region.get(key) ?? 'unassigned';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => byName(a[0], b[0]))
    .map(([name, n]) => `${name} ${n}`)
    .join('\n');
}

export const leftJoin: Skill = {
  name: 'left-join',
  title: 'a left join with a default',
  materialise: ({ scenario, rng, records }) => {
    const keys = distinctKeysOf(records);
    const [orphanRegion, ...used] = rng.shuffle(REGIONS);
    // At least one key with records is missing from the table; keys without records map to a
    // region no present key has.
    const unmapped = new Set(rng.shuffle(keys).slice(0, Math.max(1, Math.floor(keys.length / 4))));
    const region = new Map(keys.filter((k) => !unmapped.has(k)).map((k) => [k, rng.pick(used)]));
    const retired = [`${keys[0]}-retired`, `${keys[keys.length - 1]}-old`];
    const rows = rng.shuffle([...[...region].map(([k, r]) => `${k}\t${r}`), ...retired.map((k) => `${k}\t${orphanRegion}`)]);
    return {
      files: [nativeFile(scenario, records), { path: 'regions.tsv', content: `${rows.join('\n')}\n` }],
      answer: regionCounts(
        records.map((r) => r.key),
        region,
      ),
    };
  },
  task: (s) =>
    `\`DATA/regions.tsv\` maps each ${s.nouns.key} to a region (two tab-separated columns, no header); it does not list every ${s.nouns.key} of \`DATA/${s.fileName}\`, and it lists some that have no ${s.nouns.records}. Count the ${s.nouns.records} of \`DATA/${s.fileName}\` per region, counting every ${s.nouns.record} whose ${s.nouns.key} the table does not list under the region \`unassigned\`. Write one line per region that has at least one ${s.nouns.record}: the region, a space, and its count; lines sorted by region in byte order.`,
  solve: (s) =>
    `awk -F'\\t' 'NR == FNR { region[$1] = $2; next } { n[($1 in region) ? region[$1] : "unassigned"]++ } END { for (r in n) print r, n[r] }' "$d/regions.tsv" <(extract < "$d/${s.fileName}") | sort > "$out"`,
  nearMisses: (s) => [
    {
      name: 'inner-join',
      why: 'joins with `join`, which drops the records whose key the table lacks instead of counting them as unassigned',
      solve: [
        `tmp=$(mktemp -d)`,
        `extract < "$d/${s.fileName}" | cut -f1 | sort > "$tmp/left"`,
        `sort -t "$(printf '\\t')" -k1,1 "$d/regions.tsv" > "$tmp/right"`,
        `join -t "$(printf '\\t')" "$tmp/left" "$tmp/right" | cut -f2 | sort | uniq -c | awk '{ print $2, $1 }' > "$out"`,
      ].join('\n'),
    },
    {
      name: 'empty-regions-listed',
      why: 'starts every region of the table at zero, so a region whose keys have no records is printed with 0',
      solve: `awk -F'\\t' 'NR == FNR { region[$1] = $2; n[$2] += 0; next } { n[($1 in region) ? region[$1] : "unassigned"]++ } END { for (r in n) print r, n[r] }' "$d/regions.tsv" <(extract < "$d/${s.fileName}") | sort > "$out"`,
    },
  ],
};
