// Integrity checks against a checksum manifest. Two chunks are always damaged and the manifest
// lists them out of byte order, so keeping the manifest's order or stopping at the first failure
// answers wrongly.
import { createHash } from 'node:crypto';
import { byteCompare } from '../records.ts';
import { chunk, type Skill } from '../skill.ts';

const failures = `(cd "$d" && { sha256sum -c SHA256SUMS 2>/dev/null || true; }) | awk -F': ' '$2 != "OK" { print $1 }'`;

// Chunks are checksummed, then two are altered (one value changed), as if damaged in transit.
export const sha256Checksum: Skill = {
  name: 'sha256-checksum',
  title: 'integrity checks with sha256sum',
  materialise: ({ scenario, rng, records }) => {
    const chunks = chunk(records, 5).map((part, i) => ({ name: `chunk-${i + 1}-${scenario.fileName}`, part }));
    const damaged = rng
      .shuffle(chunks.map((c) => c.name))
      .slice(0, 2)
      .sort(byteCompare);
    const listed = rng.shuffle(chunks);
    const at = (name: string) => listed.findIndex((c) => c.name === name);
    if (at(damaged[0]!) < at(damaged[1]!)) {
      const [i, j] = [at(damaged[0]!), at(damaged[1]!)];
      [listed[i], listed[j]] = [listed[j]!, listed[i]!];
    }
    const manifest = listed.map((c) => `${createHash('sha256').update(scenario.render(c.part)).digest('hex')}  ${c.name}`);
    const files = chunks.map((c) => {
      const part = damaged.includes(c.name) ? c.part.map((r, i) => (i === 0 ? { ...r, value: r.value + 1 } : r)) : c.part;
      return { path: c.name, content: scenario.render(part) };
    });
    return { files: [...files, { path: 'SHA256SUMS', content: `${manifest.join('\n')}\n` }], answer: damaged.join('\n') };
  },
  task: (s) =>
    `\`DATA/\` holds the data as chunk files \`chunk-N-${s.fileName}\` and a \`SHA256SUMS\` manifest with the checksums they had when exported. Write to OUT the names of the chunk files whose current content does not match the manifest, sorted in byte order, one per line.`,
  solve: () => `${failures} | sort > "$out"`,
  nearMisses: () => [
    { name: 'manifest-order', why: 'lists the damaged files in the order of the manifest, not sorted', solve: `${failures} > "$out"` },
    { name: 'first-failure-only', why: 'stops at the first file that fails the check', solve: `${failures} | sort | head -n 1 > "$out"` },
  ],
};
