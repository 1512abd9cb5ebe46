// Joining records with an owners table and ranking the teams. Two teams always share the largest
// total (so the tie-break decides), and the owners table holds retired keys that begin with a live
// key and belong to the winning team, so looking owners up by prefix counts records twice.
import { byteCompare } from '../records.ts';
import { decimalsPhrase, printfValue, show, topOf, type Skill } from '../skill.ts';
import type { Scenario } from '../scenario.ts';
import { addSpread, totalsBy } from './traps.ts';

const TEAMS = ['atlas', 'borealis', 'cobalt', 'dune', 'ember'];

const rank = (s: Scenario, order: string): string =>
  `awk -F'\\t' '{ t[$3] += $2 } END { for (team in t) printf "%s ${printfValue(s)}\\n", team, t[team] }' | sort ${order} | awk 'NR == 1' > "$out"`;

export const joinTables: Skill = {
  name: 'join-tables',
  title: 'joining tables with join',
  materialise: ({ scenario, rng, records }) => {
    const keys = [...new Set(records.map((r) => r.key))];
    const owner = new Map(keys.map((k) => [k, rng.pick(TEAMS)]));
    if (keys.length < 2) throw new Error(`join-tables needs records of two ${scenario.nouns.key} values`);
    if (new Set(owner.values()).size < 2) owner.set(keys[1]!, rng.pick(TEAMS.filter((t) => t !== owner.get(keys[0]!))));
    const teamOf = (r: { key: string }) => owner.get(r.key)!;
    const teams = [...new Set(owner.values())].sort(byteCompare);
    const [winner, partner] = [teams[0]!, teams[1]!];
    const target = Math.max(...totalsBy(records, teamOf).values()) + 1;
    for (const team of [winner, partner]) {
      const group = records.filter((r) => teamOf(r) === team);
      addSpread(group, target - group.reduce((t, r) => t + r.value, 0));
    }
    // Owners of entities with no records in this file: they join with nothing.
    const extra = [`${keys[0]}-retired`, `${keys[1]}-old`];
    const rows = rng.shuffle([...keys.map((k) => `${k}\t${owner.get(k)}`), ...extra.map((k) => `${k}\t${winner}`)]);
    const [team, total] = topOf(totalsBy(records, teamOf));
    return {
      files: [
        { path: scenario.fileName, content: scenario.render(records) },
        { path: 'owners.tsv', content: `${rows.join('\n')}\n` },
      ],
      answer: `${team} ${show(scenario, total)}`,
    };
  },
  task: (s) =>
    `\`DATA/owners.tsv\` maps each ${s.nouns.key} to the team that owns it (two tab-separated columns, no header). Join it with \`DATA/${s.fileName}\` on the ${s.nouns.key} and find the team whose ${s.nouns.records} have the largest total ${s.nouns.value} (ties: the smallest team name in byte order). Write one line to OUT: the team, a space, and that total ${decimalsPhrase(s)}.`,
  solve: (s) =>
    [
      `tmp=$(mktemp -d)`,
      `extract < "$d/${s.fileName}" | cut -f1,2 | sort -t "$(printf '\\t')" -k1,1 > "$tmp/left"`,
      `sort -t "$(printf '\\t')" -k1,1 "$d/owners.tsv" > "$tmp/right"`,
      `join -t "$(printf '\\t')" "$tmp/left" "$tmp/right" | ${rank(s, '-k2,2nr -k1,1')}`,
    ].join('\n'),
  nearMisses: (s) => [
    {
      name: 'ties-wrong-way',
      why: 'breaks the tie for the largest total towards the largest team name',
      solve: [
        `tmp=$(mktemp -d)`,
        `extract < "$d/${s.fileName}" | cut -f1,2 | sort -t "$(printf '\\t')" -k1,1 > "$tmp/left"`,
        `sort -t "$(printf '\\t')" -k1,1 "$d/owners.tsv" > "$tmp/right"`,
        `join -t "$(printf '\\t')" "$tmp/left" "$tmp/right" | ${rank(s, '-k2,2nr -k1,1r')}`,
      ].join('\n'),
    },
    {
      name: 'prefix-key-match',
      why: `looks the owner up with \`grep "^KEY"\`, so a retired ${s.nouns.key} that begins with a live one matches too`,
      solve: [
        `extract < "$d/${s.fileName}" | cut -f1,2 | while IFS="$(printf '\\t')" read -r key value; do`,
        `  grep "^$key" "$d/owners.tsv" | while IFS="$(printf '\\t')" read -r _ team; do printf '%s\\t%s\\t%s\\n' "$key" "$value" "$team"; done`,
        `done | ${rank(s, '-k2,2nr -k1,1')}`,
      ].join('\n'),
    },
  ],
};
