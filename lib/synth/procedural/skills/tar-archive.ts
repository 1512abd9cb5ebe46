// Counting a key across the parts of a split export packed in a tar archive. The key has records
// in the first and in the last part, so reading only one part of the set undercounts.
import { chunk, type Skill } from '../skill.ts';

const count = (p: { key: string }): string => `awk -F'\\t' -v k='${p.key}' '$1 == k { n++ } END { print n + 0 }' > "$out"`;

// The archive is packed at image-build time with fixed names, owners and mtimes (reproducible).
export const tarArchive: Skill = {
  name: 'tar-archive',
  title: 'archives with tar',
  answersInteger: true,
  buildsData: true,
  materialise: ({ scenario, params, rng, records }) => {
    const parts = chunk(records, rng.int(3, 4));
    for (const part of [parts[0]!, parts[parts.length - 1]!]) if (!part.some((r) => r.key === params.key)) rng.pick(part).key = params.key;
    return {
      files: parts.map((part, i) => ({ path: `export/parts/part-${i + 1}-${scenario.fileName}`, content: scenario.render(part) })),
      build: 'tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C export -cf - parts | gzip -n > export.tar.gz\nrm -rf export\n',
      answer: String(records.filter((r) => r.key === params.key).length),
    };
  },
  task: (s, p) =>
    `\`DATA/export.tar.gz\` is a gzip-compressed tar archive whose \`parts/\` directory holds the data split into several files, each a complete \`${s.fileName}\` in the format above. Count the ${s.nouns.records} across all parts whose ${s.nouns.key} is \`${p.key}\`. Write the count to OUT.`,
  solve: (s, p) => [`tmp=$(mktemp -d)`, `tar -xzf "$d/export.tar.gz" -C "$tmp"`, `for f in "$tmp"/parts/*; do extract < "$f"; done | ${count(p)}`].join('\n'),
  nearMisses: (_, p) => [
    {
      name: 'first-part-only',
      why: 'reads only the first file of the split set',
      solve: [`tmp=$(mktemp -d)`, `tar -xzf "$d/export.tar.gz" -C "$tmp"`, `extract < "$(ls "$tmp"/parts/* | head -n 1)" | ${count(p)}`].join('\n'),
    },
    {
      name: 'last-part-only',
      why: 'reads only the last file of the split set, as if it were a complete newer export',
      solve: [`tmp=$(mktemp -d)`, `tar -xzf "$d/export.tar.gz" -C "$tmp"`, `extract < "$(ls "$tmp"/parts/* | tail -n 1)" | ${count(p)}`].join('\n'),
    },
  ],
};
