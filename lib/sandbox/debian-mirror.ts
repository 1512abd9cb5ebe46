// Finds the Debian mirror apt already uses, so debootstrap fetches from the
// same (reachable) place. Reads deb822 files in /etc/apt/sources.list.d/ and
// the one-line format in /etc/apt/sources.list.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface AptSource {
  uri: string;
  suites: string[];
}

export function parseDeb822Sources(text: string): AptSource[] {
  return text
    .split(/\n\s*\n/)
    .map((stanza) => {
      const field = (name: string) =>
        stanza
          .split('\n')
          .find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
          ?.slice(name.length + 1)
          .trim()
          .split(/\s+/) ?? [];
      const types = field('Types');
      return types.includes('deb') ? field('URIs').map((uri) => ({ uri, suites: field('Suites') })) : [];
    })
    .flat();
}

export function parseOneLineSources(text: string): AptSource[] {
  return text.split('\n').flatMap((raw) => {
    const line = raw
      .replace(/#.*/, '')
      .replace(/\[[^\]]*\]/, '')
      .trim();
    const [type, uri, suite] = line.split(/\s+/);
    return type === 'deb' && uri && suite ? [{ uri, suites: [suite] }] : [];
  });
}

export function pickMirror(sources: AptSource[], suite: string): string | undefined {
  return sources.find((s) => s.suites.includes(suite))?.uri;
}

export async function findDebianMirror(suite: string, etcApt = '/etc/apt'): Promise<string> {
  const sources: AptSource[] = [];
  const dir = join(etcApt, 'sources.list.d');
  const entries = await readdir(dir).catch(() => [] as string[]);
  for (const name of entries.sort()) {
    const text = await readFile(join(dir, name), 'utf8');
    if (name.endsWith('.sources')) sources.push(...parseDeb822Sources(text));
    else if (name.endsWith('.list')) sources.push(...parseOneLineSources(text));
  }
  sources.push(...parseOneLineSources(await readFile(join(etcApt, 'sources.list'), 'utf8').catch(() => '')));
  const mirror = pickMirror(sources, suite);
  if (!mirror) {
    throw new Error(`no apt source for Debian suite '${suite}' in ${etcApt}/sources.list(.d); debootstrap needs a mirror apt can reach`);
  }
  return mirror;
}
