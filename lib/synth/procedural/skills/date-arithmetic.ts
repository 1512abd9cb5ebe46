import type { Skill } from '../skill.ts';

export const dateArithmetic: Skill = {
  name: 'date-arithmetic',
  title: 'date arithmetic with date',
  materialise: ({ scenario, params, records }) => {
    const times = records.filter((r) => r.key === params.key).map((r) => r.time);
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: String(Math.max(...times) - Math.min(...times)) };
  },
  task: (s, p) =>
    `For the ${s.nouns.key} \`${p.key}\` in \`DATA/${s.fileName}\`, compute the number of seconds between its earliest and its latest ${s.nouns.record} (by ${s.nouns.time}). Write that integer to OUT.`,
  solve: (s, p) =>
    [
      `times=$(extract < "$d/${s.fileName}" | awk -F'\\t' -v k='${p.key}' '$1 == k { print $3 }' | sort)`,
      `first=$(date -u -d "$(printf '%s\\n' "$times" | sed -n '1p')" +%s)`,
      `last=$(date -u -d "$(printf '%s\\n' "$times" | sed -n '$p')" +%s)`,
      `echo $((last - first)) > "$out"`,
    ].join('\n'),
};
