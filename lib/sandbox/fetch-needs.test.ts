import { describe, expect, it } from 'vitest';
import { fetchNeeds, unreachableMessage } from './fetch-needs.ts';

describe('fetchNeeds', () => {
  it('reads what RUN lines and ADD fetch, continuation lines joined', () => {
    const dockerfile = [
      'FROM python:3.13-slim',
      'RUN apt-get update && apt-get install -y curl \\',
      '    && pip install --no-cache-dir pytest==8.4.1',
      'RUN curl -LsSf https://astral.sh/uv/0.9.5/install.sh | sh',
      'ADD https://github.com/x/y/archive/v1.tar.gz /tmp/',
      'RUN go mod download && cargo fetch',
      'COPY pip-install-notes.txt /tmp/',
    ].join('\n');
    expect(fetchNeeds(dockerfile, { dockerfile: true })).toEqual([
      { tool: 'pip', host: 'pypi.org', setting: 'ENVOLVE_BUILD_PIP_INDEX_URL', certain: true },
      { tool: 'apt', host: 'deb.debian.org', certain: false },
      { tool: 'curl', host: 'astral.sh', setting: 'ENVOLVE_BUILD_HTTPS_PROXY', certain: true },
      { tool: 'ADD', host: 'github.com', setting: 'ENVOLVE_BUILD_HTTPS_PROXY', certain: true },
      { tool: 'go', host: 'proxy.golang.org', setting: 'ENVOLVE_BUILD_GOPROXY', certain: false },
      { tool: 'cargo', host: 'index.crates.io', certain: false },
    ]);
  });

  it('a mirror or an index named on the command line replaces the public host', () => {
    expect(fetchNeeds('RUN pip install -r r.txt\n', { dockerfile: true, mirrors: { pipIndexUrl: 'https://devpi.lab/simple/' } })).toEqual([
      { tool: 'pip', host: 'devpi.lab', certain: true },
    ]);
    expect(fetchNeeds('RUN pip install --no-index --find-links /wheels x\n', { dockerfile: true })).toEqual([]);
  });

  it('in a script every line counts (a verifier that installs its test tools)', () => {
    expect(fetchNeeds('uvx -p 3.13 -w pytest==8.4.1 pytest /tests\n').map((n) => n.host)).toEqual(['pypi.org']);
  });

  it('says what to set', () => {
    const needs = fetchNeeds('RUN pip install x && curl -O https://example.invalid/f\n', { dockerfile: true });
    expect(unreachableMessage(needs, 'which do not resolve')).toBe(
      'the build fetches from pypi.org (pip), example.invalid (curl), which do not resolve; point it at a mirror with ENVOLVE_BUILD_PIP_INDEX_URL for pip, ENVOLVE_BUILD_HTTPS_PROXY for curl',
    );
  });
});
