import { decimalsPhrase, printfValue, show, topOf, type Skill } from '../skill.ts';

const TEAMS = ['atlas', 'borealis', 'cobalt', 'dune', 'ember'];

export const joinTables: Skill = {
  name: 'join-tables',
  title: 'joining tables with join',
  materialise: ({ scenario, rng, records }) => {
    const keys = [...new Set(records.map((r) => r.key))];
    const owner = new Map(keys.map((k) => [k, rng.pick(TEAMS)]));
    // Owners of entities with no records in this file: they join with nothing.
    const extra = [`${keys[0]}-retired`, `${keys[1] ?? keys[0]}-old`];
    const rows = rng.shuffle([...keys.map((k) => `${k}\t${owner.get(k)}`), ...extra.map((k) => `${k}\t${rng.pick(TEAMS)}`)]);
    const totals = new Map<string, number>();
    for (const r of records) totals.set(owner.get(r.key)!, (totals.get(owner.get(r.key)!) ?? 0) + r.value);
    const [team, total] = topOf(totals);
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
      `join -t "$(printf '\\t')" "$tmp/left" "$tmp/right" | awk -F'\\t' '{ t[$3] += $2 } END { for (team in t) printf "%s ${printfValue(s)}\\n", team, t[team] }' | sort -k2,2nr -k1,1 | awk 'NR == 1' > "$out"`,
    ].join('\n'),
};
