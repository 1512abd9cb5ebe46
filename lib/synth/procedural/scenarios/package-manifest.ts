// Package status database (dpkg-style stanzas, with multi-line descriptions). Rule: only packages
// installed now count; removed packages whose config files remain do not.
import { hashSeed } from '../rng.ts';
import { isoTime } from '../records.ts';
import { defineScenario, distinctKeys, keepWhere, weaveGhosts } from '../scenario.ts';

const LONG = ['Built from the upstream release tarball.', 'Shared objects for the runtime linker.', 'Command-line front end, see the manual page.'];

export const packageManifest = defineScenario({
  name: 'package-manifest',
  title: 'Package build manifest',
  fileName: 'manifest.txt',
  format:
    'Debian-control-style stanzas separated by blank lines, each with `Package:`, `Status:`, `Installed-Size:` (KiB), `Build-Date:` (ISO 8601 UTC), `Section:` and `Description:` fields in that order; a description may continue on following lines that start with a space.',
  nouns: {
    record: 'package build',
    records: 'package builds',
    key: 'package name',
    value: 'installed size in KiB',
    time: 'build date',
    category: 'section',
    text: 'description (its first line)',
  },
  columns: { key: 'package', value: 'installed_size', time: 'build_date', category: 'section', text: 'description' },
  value: { decimals: 0, min: 8, max: 90_000 },
  categories: ['libs', 'utils', 'net', 'devel', 'python', 'admin'],
  texts: ['runtime-library', 'cli-tool', 'daemon', 'headers', 'bindings', 'docs'],
  makeKeys: (rng) =>
    distinctKeys(rng, 8, (r) => `${r.pick(['lib', 'py-', 'node-', ''])}${r.pick(['ssl', 'zlib', 'curl', 'yaml', 'xml2', 'ffi', 'uv', 'pcre'])}${r.int(1, 9)}`),
  rule: {
    name: 'removed-packages-excluded',
    describe:
      'Only stanzas whose `Status:` is `install ok installed` count; `deinstall ok config-files` marks a removed package whose configuration was kept, which does not count as a package build for any question of this step.',
    column: 'status',
    columnMeaning: '`installed` or `config-files`',
    weave: (records, value) =>
      weaveGhosts(
        records,
        value,
        () => 'installed',
        (ghost) => [{ ...ghost, attr: 'config-files' }],
      ),
    filter: keepWhere('$6 == "installed"'),
  },
  renderRows: (rows) =>
    rows
      .map((r) => {
        const h = hashSeed('long', r.key, r.time);
        const more = h % 3 === 0 ? `\n ${LONG[h % LONG.length]}\n .\n Homepage: https://example.test/${r.key}` : '';
        const status = r.attr === 'installed' ? 'install ok installed' : 'deinstall ok config-files';
        return `Package: ${r.key}\nStatus: ${status}\nInstalled-Size: ${r.value}\nBuild-Date: ${isoTime(r.time)}\nSection: ${r.category}\nDescription: ${r.text}${more}\n`;
      })
      .join('\n'),
  parse: `awk -v OFS='\\t' '/^Package: /{k=$2} /^Status: /{s=$4} /^Installed-Size: /{v=$2} /^Build-Date: /{t=$2} /^Section: /{c=$2} /^Description: /{print k,v,t,c,$2,s}'`,
});
