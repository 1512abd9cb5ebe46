import { isoTime } from '../records.ts';
import { distinctKeys, type Scenario } from '../scenario.ts';

export const packageManifest: Scenario = {
  name: 'package-manifest',
  title: 'Package build manifest',
  fileName: 'manifest.txt',
  format:
    'Debian-control-style stanzas separated by blank lines, each with `Package:`, `Installed-Size:` (KiB), `Build-Date:` (ISO 8601 UTC), `Section:` and `Description:` fields in that order.',
  nouns: {
    record: 'package build',
    records: 'package builds',
    key: 'package name',
    value: 'installed size in KiB',
    time: 'build date',
    category: 'section',
    text: 'description',
  },
  columns: { key: 'package', value: 'installed_size', time: 'build_date', category: 'section', text: 'description' },
  value: { decimals: 0, min: 8, max: 90_000 },
  categories: ['libs', 'utils', 'net', 'devel', 'python', 'admin'],
  texts: ['runtime-library', 'cli-tool', 'daemon', 'headers', 'bindings', 'docs'],
  makeKeys: (rng) =>
    distinctKeys(rng, 8, (r) => `${r.pick(['lib', 'py-', 'node-', ''])}${r.pick(['ssl', 'zlib', 'curl', 'yaml', 'xml2', 'ffi', 'uv', 'pcre'])}${r.int(1, 9)}`),
  render: (records) =>
    records
      .map((r) => `Package: ${r.key}\nInstalled-Size: ${r.value}\nBuild-Date: ${isoTime(r.time)}\nSection: ${r.category}\nDescription: ${r.text}\n`)
      .join('\n'),
  extract: `awk -v OFS='\\t' '/^Package: /{k=$2} /^Installed-Size: /{v=$2} /^Build-Date: /{t=$2} /^Section: /{c=$2} /^Description: /{print k,v,t,c,$2}'`,
};
