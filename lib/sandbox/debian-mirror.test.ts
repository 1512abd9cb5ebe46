import { describe, expect, it } from 'vitest';
import { parseDeb822Sources, parseOneLineSources, pickMirror } from './debian-mirror.ts';

describe('Debian mirror from apt sources', () => {
  it('picks the deb822 stanza serving the suite, not security or other repositories', () => {
    const sources = parseDeb822Sources(`Types: deb
URIs: http://mirror.example.test/debian
Suites: bookworm bookworm-updates
Components: main

Types: deb
URIs: http://mirror.example.test/debian-security
Suites: bookworm-security
Components: main
`);
    expect(pickMirror(sources, 'bookworm')).toBe('http://mirror.example.test/debian');
  });

  it('reads the one-line format, ignoring options, comments and deb-src', () => {
    const sources = parseOneLineSources(`# comment
deb-src http://src.example/debian bookworm main
deb https://packages.cloud.google.com/apt cloud-sdk-bookworm main
deb [arch=amd64] http://mirror.example/debian bookworm main
`);
    expect(pickMirror(sources, 'bookworm')).toBe('http://mirror.example/debian');
  });
});
