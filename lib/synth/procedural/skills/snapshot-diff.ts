// A diff between two snapshots keyed by name: the latest value per key at a midpoint and at the
// end, written in different row orders. Keys appear, disappear and change value, so a line-level
// comparison (a changed key shows as one removed and one added line) and a key-set comparison
// (changes unseen) both give another answer.
import type { DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { a, byName, showUnits } from './shaping.ts';

export function latestByKey(records: DataRecord[]): Map<string, number> {
  const latest = new Map<string, number>();
  for (const r of [...records].sort((a, b) => a.time - b.time)) latest.set(r.key, r.value);
  return latest;
}

export function snapshotDiff(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>, show: (units: number) => string): string[] {
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort(byName);
  return keys.flatMap((key) => {
    const [old, now] = [before.get(key), after.get(key)];
    if (old === undefined) return [`${key} added`];
    if (now === undefined) return [`${key} removed`];
    return old === now ? [] : [`${key} changed ${show(old)} ${show(now)}`];
  });
}

export const snapshotDiffSkill: Skill = {
  name: 'snapshot-diff',
  title: 'diffing two keyed snapshots',
  exportsColumns: true,
  materialise: ({ scenario, rng, records }) => {
    const show = (units: number): string => showUnits(scenario, units);
    const middle = Math.floor(records.length / 2);
    const before = latestByKey(records.slice(0, middle));
    const after = latestByKey(records.slice(middle));
    const keys = [...new Set(records.map((r) => r.key))];
    // One key only before (removed), one only after (added), one unchanged, the rest as the data has them.
    const [gone, fresh, same] = rng.shuffle(keys);
    after.delete(gone!);
    if (fresh !== undefined) before.delete(fresh);
    if (same !== undefined && before.has(same)) after.set(same, before.get(same)!);
    // At least one key changes value (present before and after, with another value).
    const changing = keys.find((k) => before.has(k) && k !== same && k !== gone);
    if (changing !== undefined && (!after.has(changing) || after.get(changing) === before.get(changing))) after.set(changing, before.get(changing)! + 1);
    const table = (m: Map<string, number>): string =>
      `${scenario.columns.key}\t${scenario.columns.value}\n${rng
        .shuffle([...m])
        .map(([k, v]) => `${k}\t${show(v)}`)
        .join('\n')}\n`;
    return {
      files: [
        { path: 'before.tsv', content: table(before) },
        { path: 'after.tsv', content: table(after) },
      ],
      answer: snapshotDiff(before, after, show).join('\n'),
    };
  },
  task: (s) =>
    `\`DATA/before.tsv\` and \`DATA/after.tsv\` are two snapshots of the current ${s.nouns.value} per ${s.nouns.key}: tab-separated, a header row \`${s.columns.key}<TAB>${s.columns.value}\`, one row per ${s.nouns.key}, rows in no particular order. Compare them by ${s.nouns.key}. Write to OUT one line per ${s.nouns.key} that differs, sorted by ${s.nouns.key} in byte order: \`KEY added\` for ${a(s.nouns.key)} only in the second snapshot, \`KEY removed\` for one only in the first, and \`KEY changed OLD NEW\` for one in both with a different ${s.nouns.value} (OLD and NEW as the snapshots write them).`,
  solve: () =>
    [
      `awk -F'\\t' 'FNR == 1 { next } NR == FNR { old[$1] = $2; next } { now[$1] = $2 }`,
      `  END { for (k in old) if (!(k in now)) print k, "removed"; else if (old[k] != now[k]) print k, "changed", old[k], now[k]`,
      `        for (k in now) if (!(k in old)) print k, "added" }' "$d/before.tsv" "$d/after.tsv" | sort -k1,1 > "$out"`,
    ].join('\n'),
  nearMisses: () => [
    {
      name: 'line-level-diff',
      why: 'compares the sorted lines, so a changed value shows as a removed and an added key instead of one change',
      solve: [
        `tmp=$(mktemp -d)`,
        `tail -n +2 "$d/before.tsv" | sort > "$tmp/old"; tail -n +2 "$d/after.tsv" | sort > "$tmp/new"`,
        `{ comm -23 "$tmp/old" "$tmp/new" | cut -f1 | sed 's/$/ removed/'; comm -13 "$tmp/old" "$tmp/new" | cut -f1 | sed 's/$/ added/'; } | sort > "$out"`,
      ].join('\n'),
    },
    {
      name: 'key-set-only',
      why: 'compares only which keys exist, missing the keys whose value changed',
      solve: [
        `tmp=$(mktemp -d)`,
        `tail -n +2 "$d/before.tsv" | cut -f1 | sort > "$tmp/old"; tail -n +2 "$d/after.tsv" | cut -f1 | sort > "$tmp/new"`,
        `{ comm -23 "$tmp/old" "$tmp/new" | sed 's/$/ removed/'; comm -13 "$tmp/old" "$tmp/new" | sed 's/$/ added/'; } | sort > "$out"`,
      ].join('\n'),
    },
  ],
};
