import { chunk, decimalsPhrase, printfValue, show, sum, type Skill } from '../skill.ts';

const MODES = ['644', '600', '640', '664', '444'];

// Modes are set by the build script, since a bundle only records whether a file is executable.
export const filePermissions: Skill = {
  name: 'file-permissions',
  title: 'file modes with stat',
  buildsData: true,
  materialise: ({ scenario, rng, records }) => {
    const batches = chunk(records, 6).map((part, i) => ({
      path: `inbox/batch-${i + 1}-${scenario.fileName}`,
      part,
      mode: i === 0 ? '644' : i === 1 ? '600' : rng.pick(MODES),
    }));
    const approved = batches.filter((b) => b.mode === '644');
    return {
      files: batches.map((b) => ({ path: b.path, content: scenario.render(b.part) })),
      build: `${batches.map((b) => `chmod ${b.mode} '${b.path}'`).join('\n')}\n`,
      answer: `${approved.length} ${show(scenario, sum(approved.flatMap((b) => b.part)))}`,
    };
  },
  task: (s) =>
    `\`DATA/inbox/\` holds batch files, each a complete \`${s.fileName}\` in the format above. Only batches whose permission mode is exactly \`644\` (rw-r--r--) have been approved. Write one line to OUT: the number of approved batches, a space, and the total ${s.nouns.value} over their ${s.nouns.records} ${decimalsPhrase(s)}.`,
  solve: (s) =>
    [
      `tmp=$(mktemp)`,
      `n=0`,
      `for f in "$d"/inbox/*; do`,
      `  if [ "$(stat -c %a "$f")" = 644 ]; then n=$((n + 1)); extract < "$f" >> "$tmp"; fi`,
      `done`,
      `awk -F'\\t' -v n="$n" '{ t += $2 } END { printf "%d ${printfValue(s)}\\n", n, t }' "$tmp" > "$out"`,
    ].join('\n'),
};
