import { createHash } from 'node:crypto';
import { byteCompare } from '../records.ts';
import { chunk, type Skill } from '../skill.ts';

// Chunks are checksummed, then one or two are altered (one value changed), as if damaged in transit.
export const sha256Checksum: Skill = {
  name: 'sha256-checksum',
  title: 'integrity checks with sha256sum',
  materialise: ({ scenario, rng, records }) => {
    const chunks = chunk(records, 5).map((part, i) => ({ name: `chunk-${i + 1}-${scenario.fileName}`, part }));
    const damaged = new Set(rng.shuffle(chunks.map((c) => c.name)).slice(0, rng.int(1, 2)));
    const manifest = chunks.map((c) => `${createHash('sha256').update(scenario.render(c.part)).digest('hex')}  ${c.name}`);
    const files = chunks.map((c) => {
      const part = damaged.has(c.name) ? c.part.map((r, i) => (i === 0 ? { ...r, value: r.value + 1 } : r)) : c.part;
      return { path: c.name, content: scenario.render(part) };
    });
    return { files: [...files, { path: 'SHA256SUMS', content: `${manifest.join('\n')}\n` }], answer: [...damaged].sort(byteCompare).join('\n') };
  },
  task: (s) =>
    `\`DATA/\` holds the data as chunk files \`chunk-N-${s.fileName}\` and a \`SHA256SUMS\` manifest with the checksums they had when exported. Write to OUT the names of the chunk files whose current content does not match the manifest, sorted in byte order, one per line.`,
  solve: () => `(cd "$d" && { sha256sum -c SHA256SUMS 2>/dev/null || true; }) | awk -F': ' '$2 != "OK" { print $1 }' | sort > "$out"`,
};
