import { describe, expect, it } from 'vitest';
import { bundleOf, validTaskFiles } from '../../test/env/task-fixtures.ts';
import { harborWarnings, internetRequests } from './harbor-warnings.ts';
import { formatProblem } from './problems.ts';
import { settingsFrom } from '../config/settings.ts';

const warningsOf = (files: Record<string, string>) => harborWarnings(bundleOf({ ...validTaskFiles(), ...files })).map(formatProblem);

describe('harborWarnings', () => {
  it('says nothing about a clean task', () => {
    expect(warningsOf({})).toEqual([]);
  });

  it('flags CRLF scripts and a shebang below the first line', () => {
    expect(warningsOf({ 'tests/test.sh': '#!/bin/bash\r\necho 1 > /logs/verifier/reward.txt\r\n' })).toEqual([
      "tests/test.sh: has CRLF line endings: bash reads the \\r as part of each command ($'\\r': command not found)",
    ]);
    expect(warningsOf({ 'solution/solve.sh': '\n#!/bin/bash\necho hi\n' })).toEqual([
      'solution/solve.sh: the shebang is on line 2, not at the very start: the kernel ignores it',
    ]);
  });

  it('flags COPY sources missing from environment/, and not stage copies, globs that match or URLs', () => {
    const dockerfile = [
      'FROM envolve/base:bookworm AS build',
      'COPY --from=build /x /y',
      'COPY data/*.csv \\',
      '     /app/',
      'ADD https://example.com/f.tgz /tmp/',
      'COPY --chown=agent:agent missing.txt config/ /app/',
    ].join('\n');
    expect(warningsOf({ 'environment/Dockerfile': dockerfile, 'environment/data/a.csv': 'x', 'environment/config/c.ini': 'y' })).toEqual([
      "environment/Dockerfile: COPY source 'missing.txt' is not in environment/: the build will fail",
      'environment/Dockerfile: the build downloads from example.com (ADD): behind a mirror, set ENVOLVE_BUILD_HTTPS_PROXY',
    ]);
  });

  it('names what the build downloads, and what the offline phases would download; a CRLF Dockerfile is fine', () => {
    expect(
      warningsOf({
        'environment/Dockerfile': 'FROM python:3.13-slim\r\nRUN pip install pytest==8.4.1\r\n',
        'tests/test.sh': '#!/bin/bash\ncurl -LsSf https://astral.sh/uv/0.9.5/install.sh | sh\nuvx -w pytest==8.4.1 pytest /tests\n',
      }),
    ).toEqual([
      'environment/Dockerfile: the build downloads from pypi.org (pip): behind a mirror, set ENVOLVE_BUILD_PIP_INDEX_URL',
      'tests/test.sh: downloads from astral.sh (curl), pypi.org (uv), but Envolve runs this phase offline: install it in the image (environment/Dockerfile) instead',
    ]);
  });

  it('says which resources a task asks more of than the deployment gives, and what its runs get instead', () => {
    const ceilings = settingsFrom({ ENVOLVE_MAX_MEMORY_MB: '4096', ENVOLVE_MAX_BUILD_TIMEOUT_SEC: '600' }).sandbox.ceilings;
    const toml = '[verifier]\ntimeout_sec = 60\n[environment]\nmemory_mb = 8192\nbuild_timeout_sec = 3600\ncpus = 0.5\n';
    expect(harborWarnings(bundleOf({ ...validTaskFiles(), 'task.toml': toml }), ceilings).map(formatProblem)).toEqual([
      "task.toml: [environment] memory_mb = 8192 is more than this deployment's ceiling: its trials run with 4096 MB (ENVOLVE_MAX_MEMORY_MB)",
      "task.toml: [environment] build_timeout_sec = 3600 is more than this deployment's ceiling: its image builds run with 600 s (ENVOLVE_MAX_BUILD_TIMEOUT_SEC)",
    ]);
  });

  it('flags an explicit request for internet, by phase, and compose files', () => {
    expect(internetRequests('[environment]\nallow_internet = true\n[agent]\nallow_internet = false\n')).toEqual(['environment']);
    expect(internetRequests('[metadata]\n')).toEqual([]);
    expect(warningsOf({ 'task.toml': '[agent]\nallow_internet = true\n', 'environment/docker-compose.yaml': 'services: {}\n' })).toEqual([
      'task.toml: asks for internet ([agent] allow_internet = true): Envolve runs the agent and the verifier offline, so whatever needs the network will fail',
      "environment/docker-compose.yaml: a multi-container task Envolve will refuse to validate: environment/docker-compose.yaml has no 'main' service (the container the agent and the tests run in)",
    ]);
    expect(warningsOf({ 'environment/docker-compose.yaml': 'services:\n  main:\n    build: .\n  db:\n    image: envolve/base:bookworm\n' })).toEqual([
      'environment/docker-compose.yaml: a multi-container task: its 1 sidecar(s) run on a per-trial network with no internet, and their images must be on this machine',
    ]);
  });
});
