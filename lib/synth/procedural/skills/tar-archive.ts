import { chunk, type Skill } from '../skill.ts';

// The archive is packed at image-build time with fixed names, owners and mtimes (reproducible).
export const tarArchive: Skill = {
  name: 'tar-archive',
  title: 'archives with tar',
  buildsData: true,
  materialise: ({ scenario, params, rng, records }) => {
    const parts = chunk(records, rng.int(3, 4));
    return {
      files: parts.map((part, i) => ({ path: `export/parts/part-${i + 1}-${scenario.fileName}`, content: scenario.render(part) })),
      build: 'tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C export -cf - parts | gzip -n > export.tar.gz\nrm -rf export\n',
      answer: String(records.filter((r) => r.key === params.key).length),
    };
  },
  task: (s, p) =>
    `\`DATA/export.tar.gz\` is a gzip-compressed tar archive whose \`parts/\` directory holds the data split into several files, each a complete \`${s.fileName}\` in the format above. Count the ${s.nouns.records} across all parts whose ${s.nouns.key} is \`${p.key}\`. Write the count to OUT.`,
  solve: (s, p) =>
    [
      `tmp=$(mktemp -d)`,
      `tar -xzf "$d/export.tar.gz" -C "$tmp"`,
      `for f in "$tmp"/parts/*; do extract < "$f"; done | awk -F'\\t' -v k='${p.key}' '$1 == k { n++ } END { print n + 0 }' > "$out"`,
    ].join('\n'),
};
