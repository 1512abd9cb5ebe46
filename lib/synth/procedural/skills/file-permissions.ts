// Selecting batch files by their exact mode. The modes always include 664 (which `find -perm -644`
// admits), 640 (which a `64*` prefix test admits) and 600 (unapproved records a sum over every
// batch would count).
import type { Scenario } from '../scenario.ts';
import { chunk, decimalsPhrase, printfValue, show, sum, type Skill } from '../skill.ts';

const MODES = ['644', '600', '640', '664', '444'];
const FIRST_MODES = ['644', '600', '664', '640'];

const loop = (s: Scenario, approved: string, sumOf = '"$tmp"'): string =>
  [
    `tmp=$(mktemp)`,
    `n=0`,
    `for f in "$d"/inbox/*; do`,
    `  if ${approved}; then n=$((n + 1)); extract < "$f" >> "$tmp"; fi`,
    `done`,
    `awk -F'\\t' -v n="$n" '{ t += $2 } END { printf "%d ${printfValue(s)}\\n", n, t }' ${sumOf} > "$out"`,
  ].join('\n');

// Modes are set by the build script, since a bundle only records whether a file is executable.
export const filePermissions: Skill = {
  name: 'file-permissions',
  title: 'file modes with stat',
  answersInteger: true,
  buildsData: true,
  materialise: ({ scenario, rng, records }) => {
    const batches = chunk(records, 6).map((part, i) => ({
      path: `inbox/batch-${i + 1}-${scenario.fileName}`,
      part,
      mode: FIRST_MODES[i] ?? rng.pick(MODES),
    }));
    if (batches.length < FIRST_MODES.length) throw new Error(`file-permissions needs ${FIRST_MODES.length} batches, got ${batches.length}`);
    const approved = batches.filter((b) => b.mode === '644');
    return {
      files: batches.map((b) => ({ path: b.path, content: scenario.render(b.part) })),
      build: `${batches.map((b) => `chmod ${b.mode} '${b.path}'`).join('\n')}\n`,
      answer: `${approved.length} ${show(scenario, sum(approved.flatMap((b) => b.part)))}`,
    };
  },
  task: (s) =>
    `\`DATA/inbox/\` holds batch files, each a complete \`${s.fileName}\` in the format above. Only batches whose permission mode is exactly \`644\` (rw-r--r--) have been approved. Write one line to OUT: the number of approved batches, a space, and the total ${s.nouns.value} over their ${s.nouns.records} ${decimalsPhrase(s)}.`,
  solve: (s) => loop(s, `[ "$(stat -c %a "$f")" = 644 ]`),
  nearMisses: (s) => [
    {
      name: 'at-least-644',
      why: 'selects with `find -perm -644`, which also admits modes with more bits set (664)',
      solve: loop(s, `[ -n "$(find "$f" -perm -644)" ]`),
    },
    { name: 'mode-prefix', why: 'tests the mode with a `64*` pattern, which also admits 640', solve: loop(s, `[[ "$(stat -c %a "$f")" == 64* ]]`) },
    {
      name: 'sum-over-every-batch',
      why: 'counts the approved batches but sums the records of every batch',
      solve: loop(s, `[ "$(stat -c %a "$f")" = 644 ]`, `<(for f in "$d"/inbox/*; do extract < "$f"; done)`),
    },
  ],
};
