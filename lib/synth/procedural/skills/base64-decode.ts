import { isoTime } from '../records.ts';
import type { Skill } from '../skill.ts';

// Encoded like `base64` does by default: 76-character lines.
function base64Lines(text: string): string {
  const encoded = Buffer.from(text).toString('base64');
  return `${encoded.match(/.{1,76}/g)!.join('\n')}\n`;
}

export const base64Decode: Skill = {
  name: 'base64-decode',
  title: 'decoding base64',
  materialise: ({ scenario, params, records }) => {
    // Records are chronological with distinct times, so the earliest is unique.
    const earliest = records.find((r) => r.category === params.category)!;
    return {
      files: [{ path: `${scenario.fileName}.b64`, content: base64Lines(scenario.render(records)) }],
      answer: `${earliest.key} ${isoTime(earliest.time)}`,
    };
  },
  task: (s, p) =>
    `\`DATA/${s.fileName}.b64\` is \`${s.fileName}\` encoded in base64. Find the earliest ${s.nouns.record} (by ${s.nouns.time}) whose ${s.nouns.category} is \`${p.category}\`. Write one line to OUT: its ${s.nouns.key}, a space, and its time as \`YYYY-MM-DDTHH:MM:SSZ\` (UTC).`,
  solve: (s, p) =>
    `base64 -d "$d/${s.fileName}.b64" | extract | awk -F'\\t' -v c='${p.category}' '$4 == c { print $3, $1 }' | sort | awk 'NR == 1 { print $2, $1 }' > "$out"`,
};
