// Top-k with ties: the three keys with the largest totals, and every key tied with the third. The
// data makes the fourth key's total equal the third's, so `head -3` drops a tied key and a
// reversed tie order lists them differently.
import type { DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { addAt, awkShow, awkUnits, byName, showUnits } from './shaping.ts';

export function totalsByKey(records: DataRecord[]): [string, number][] {
  const totals = new Map<string, number>();
  for (const r of records) totals.set(r.key, (totals.get(r.key) ?? 0) + r.value);
  return [...totals].sort((a, b) => b[1] - a[1] || byName(a[0], b[0]));
}

export function topWithTies(records: DataRecord[], k: number): [string, number][] {
  const ranked = totalsByKey(records);
  const cut = ranked[Math.min(k, ranked.length) - 1]![1];
  return ranked.filter(([, total]) => total >= cut);
}

export const topKTiesSkill: Skill = {
  name: 'top-k-ties',
  title: 'top-k with ties',
  materialise: ({ scenario, rng, records }) => {
    const keys = [...new Set(records.map((r) => r.key))];
    // Five keys at least, so a fourth and a fifth exist below the cut.
    for (let i = 0; keys.length < 5; i++) {
      const key = `${keys[0]}-${i + 2}`;
      keys.push(key);
      addAt(records, { ...rng.pick(records), key }, records[records.length - 1]!.time + 60);
    }
    const ranked = totalsByKey(records);
    const [third, fourth] = [ranked[2]!, ranked[3]!];
    // Lift the fourth key's total to the third's with one more record (or several, when the
    // difference exceeds the largest value).
    let missing = third[1] - fourth[1];
    while (missing > 0) {
      const value = Math.min(missing, scenario.value.max);
      addAt(records, { ...rng.pick(records), key: fourth[0], value }, records[0]!.time + rng.int(1, records[records.length - 1]!.time - records[0]!.time));
      missing -= value;
    }
    return {
      files: [{ path: scenario.fileName, content: scenario.render(records) }],
      answer: topWithTies(records, 3)
        .map(([key, total]) => `${key} ${showUnits(scenario, total)}`)
        .join('\n'),
    };
  },
  task: (s) =>
    `Total the ${s.nouns.value} per ${s.nouns.key} over \`DATA/${s.fileName}\` and list the top 3 by total (each a ${s.nouns.key}), together with every further ${s.nouns.key} whose total equals the third-largest (ties at the cut are all included, so the list may be longer than 3). Write one line per listed ${s.nouns.key} to OUT: the ${s.nouns.key}, a space, and its total ${s.value.decimals === 0 ? 'as an integer' : 'with exactly 2 decimals'}; lines ordered by total descending, equal totals by ${s.nouns.key} in byte order.`,
  solve: (s) =>
    [
      `extract < "$d/${s.fileName}" | awk -F'\\t' '{ t[$1] += ${awkUnits(s)} } END { for (k in t) print t[k], k }' | sort -k1,1nr -k2,2 |`,
      `  awk 'NR <= 3 { cut = $1 } NR <= 3 || $1 == cut { print $2, ${awkShow(s, '$1')} }' > "$out"`,
    ].join('\n'),
  nearMisses: (s) => [
    {
      name: 'exactly-three',
      why: 'keeps exactly three lines (`head -n 3`), dropping the key tied with the third',
      solve: `extract < "$d/${s.fileName}" | awk -F'\\t' '{ t[$1] += ${awkUnits(s)} } END { for (k in t) print t[k], k }' | sort -k1,1nr -k2,2 | awk 'NR <= 3 { print $2, ${awkShow(s, '$1')} }' > "$out"`,
    },
    {
      name: 'ties-reversed',
      why: 'orders equal totals by key in reverse byte order',
      solve: [
        `extract < "$d/${s.fileName}" | awk -F'\\t' '{ t[$1] += ${awkUnits(s)} } END { for (k in t) print t[k], k }' | sort -k1,1nr -k2,2r |`,
        `  awk 'NR <= 3 { cut = $1 } NR <= 3 || $1 == cut { print $2, ${awkShow(s, '$1')} }' > "$out"`,
      ].join('\n'),
    },
  ],
};
