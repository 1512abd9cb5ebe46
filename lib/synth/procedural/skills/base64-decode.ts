// The earliest record of a category, from a base64-encoded file. The file is two hosts' logs one
// after the other, so its first match is not the earliest; the file's earliest record is of
// another category, so dropping the category filter answers wrongly too.
import { isoTime } from '../records.ts';
import type { Skill } from '../skill.ts';
import { ensureCount, mergedHosts } from './traps.ts';

// Encoded like `base64` does by default: 76-character lines.
function base64Lines(text: string): string {
  const encoded = Buffer.from(text).toString('base64');
  return `${encoded.match(/.{1,76}/g)!.join('\n')}\n`;
}

const decoded = (s: { fileName: string }): string => `base64 -d "$d/${s.fileName}.b64" | extract`;

export const base64Decode: Skill = {
  name: 'base64-decode',
  title: 'decoding base64',
  materialise: ({ scenario, params, rng, records }) => {
    // Records are generated in time order with distinct times, so the earliest is unique.
    const first = records[0]!;
    if (first.category === params.category) first.category = scenario.categories.find((c) => c !== params.category)!;
    ensureCount(rng, records, 'category', params.category, 2, (r) => r === first);
    const mine = records.filter((r) => r.category === params.category);
    const earliest = mine[0]!;
    const file = mergedHosts(rng, records, new Set([mine[1]!]), new Set([earliest]));
    return {
      files: [{ path: `${scenario.fileName}.b64`, content: base64Lines(scenario.render(file)) }],
      answer: `${earliest.key} ${isoTime(earliest.time)}`,
    };
  },
  task: (s, p) =>
    `\`DATA/${s.fileName}.b64\` is \`${s.fileName}\` encoded in base64. Find the earliest ${s.nouns.record} (by ${s.nouns.time}) whose ${s.nouns.category} is \`${p.category}\`. Write one line to OUT: its ${s.nouns.key}, a space, and its time as \`YYYY-MM-DDTHH:MM:SSZ\` (UTC).`,
  solve: (s, p) => `${decoded(s)} | awk -F'\\t' -v c='${p.category}' '$4 == c { print $3, $1 }' | sort | awk 'NR == 1 { print $2, $1 }' > "$out"`,
  nearMisses: (s, p) => [
    {
      name: 'first-match-in-file',
      why: 'takes the first matching line of the file as the earliest, but the lines are not in time order',
      solve: `${decoded(s)} | awk -F'\\t' -v c='${p.category}' '$4 == c && !seen++ { print $1, $3 }' > "$out"`,
    },
    {
      name: 'no-category-filter',
      why: `takes the earliest ${s.nouns.record} of any ${s.nouns.category}`,
      solve: `${decoded(s)} | awk -F'\\t' '{ print $3, $1 }' | sort | awk 'NR == 1 { print $2, $1 }' > "$out"`,
    },
  ],
};
