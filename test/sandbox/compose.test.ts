// A multi-container task for real: `main` (built from environment/Dockerfile) and an HTTP sidecar
// the tests query, on a per-trial internal network. Oracle 1, nop 0, neither container reaches
// the internet, and the sidecar, the trial container and the network are gone afterwards.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { reapTrialNetworks, startServices } from '../../lib/sandbox/compose.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { ensureToolchainImage } from '../../lib/sandbox/toolchain-images.ts';
import { validateEnvironment } from '../../lib/validate/validate-environment.ts';
import { helloTask } from './fixtures.ts';
import { DOCKER_REMOVAL_MS, limitMs } from '../budgets.ts';

const sandbox = new DockerSandbox();
let testDb: TestDb;
const run = randomUUID().slice(0, 8);

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  await ensureToolchainImage(sandbox.docker, 'python');
  testDb = await createTestDb();
});
afterAll(() => testDb.cleanup());

// The sidecar records whether it can reach a host this machine reaches, then serves /srv.
const SIDECAR = [
  'mkdir -p /srv && cd /srv && echo hello > greeting',
  '(curl -s --max-time 5 -o /dev/null http://deb.debian.org/debian/ && echo reachable || echo unreachable) > egress',
  'exec python3 -m http.server 8080',
].join(' && ');

function composeTask() {
  return helloTask({
    'instruction.md': `Fetch http://api:8080/greeting from the api service and write it to /app/out.txt (${run}).\n`,
    'environment/docker-compose.yaml': `services:\n  main:\n    build: .\n  api:\n    image: envolve/base:bookworm\n    command: ${JSON.stringify(SIDECAR)}\n`,
    'solution/solve.sh': [
      '#!/bin/bash',
      'curl -sS --retry 20 --retry-connrefused --retry-delay 1 http://api:8080/greeting -o /app/out.txt',
      'echo "sidecar egress: $(curl -sS --retry 20 --retry-connrefused --retry-delay 1 http://api:8080/egress)"',
      'if curl -s --max-time 5 -o /dev/null http://deb.debian.org/debian/; then echo "main egress: reachable"; else echo "main egress: unreachable"; fi',
      '',
    ].join('\n'),
  });
}

// The shape of a Harbor compose task: main built and named by ${MAIN_IMAGE_NAME}, a sidecar from a
// registry tag that serves only after a delay, a healthcheck, and main waiting for it to be healthy.
// The solution fetches once, without retrying: it passes only if main started after the sidecar was healthy.
function harborComposeTask() {
  const compose = [
    'services:',
    '  main:',
    '    build:',
    '      context: .',
    '    image: ${MAIN_IMAGE_NAME}',
    '    depends_on:',
    '      api:',
    '        condition: service_healthy',
    '  api:',
    '    image: python:3.12-slim',
    '    expose: ["8080"]',
    '    working_dir: /srv',
    '    tmpfs: [/srv]',
    `    command: ["sh", "-c", "sleep 2 && echo hello > /srv/greeting && exec python3 -m http.server 8080"]`,
    '    healthcheck:',
    '      test: ["CMD-SHELL", "curl -fsS -o /dev/null http://localhost:8080/greeting"]',
    '      interval: 1s',
    '      timeout: 2s',
    '      retries: 30',
    '',
  ].join('\n');
  return helloTask({
    'instruction.md': `Fetch http://api:8080/greeting from the api service and write it to /app/out.txt (${run}).\n`,
    'environment/docker-compose.yaml': compose,
    'solution/solve.sh': '#!/bin/bash\ncurl -fsS http://api:8080/greeting -o /app/out.txt\n',
  });
}

// A sidecar that serves the task's own files, mounted read-only: a directory (short syntax) and
// one file (long syntax), each copied into the sidecar before it starts. The sidecar runs as
// nobody and first tries to overwrite what it serves; the oracle passes only if the task's
// content arrived unchanged.
function volumeTask() {
  const compose = [
    'services:',
    '  main:',
    '    build: .',
    '  api:',
    '    image: envolve/base:bookworm',
    '    user: "65534"',
    '    volumes:',
    '      - ./site:/srv:ro',
    '      - type: bind',
    '        source: ./notes/motd.txt',
    '        target: /srv/extra/motd.txt',
    '        read_only: true',
    `    command: ["sh", "-c", "(echo tampered > /srv/greeting.txt) 2>/dev/null; cd /srv && exec python3 -m http.server 8080"]`,
    '',
  ].join('\n');
  return helloTask({
    'instruction.md': `Fetch http://api:8080/greeting.txt and http://api:8080/extra/motd.txt, and write them to /app/out.txt (${run}).\n`,
    'environment/docker-compose.yaml': compose,
    'environment/site/greeting.txt': 'hel',
    'environment/notes/motd.txt': 'lo\n',
    'solution/solve.sh': [
      '#!/bin/bash',
      'for f in greeting.txt extra/motd.txt; do curl -fsS --retry 20 --retry-connrefused --retry-delay 1 "http://api:8080/$f"; done > /app/out.txt',
      '',
    ].join('\n'),
  });
}

async function leftovers(): Promise<{ containers: number; networks: number }> {
  const containers = await sandbox.docker.listContainers({ all: true, filters: { label: [`envolve.version`] } });
  const ours = containers.filter((c) => c.Labels['envolve.run'] === run);
  const networks = (await sandbox.docker.listNetworks({ filters: { label: [`envolve.run=${run}`] } })).length;
  return { containers: ours.length, networks };
}

describe('a compose task with main and an HTTP sidecar', () => {
  it('validates (oracle 1, nop 0) with no egress from either container, and leaves nothing behind', async () => {
    const versionId = await storeBundle(testDb.db, composeTask(), { source: 'import' });
    const runs = await validateEnvironment({ db: testDb.db, sandbox, versionId, labels: { 'envolve.run': run } });
    const byKind = Object.fromEntries(runs.map((r) => [r.kind, r]));
    expect(byKind.oracle, `${byKind.oracle?.error}\n${byKind.oracle?.agentLog}`).toMatchObject({ verdict: 'passed', reward: 1 });
    expect(byKind['invalid-test']).toMatchObject({ verdict: 'passed', reward: 0 });
    expect(byKind.oracle!.agentLog).toContain('sidecar egress: unreachable');
    expect(byKind.oracle!.agentLog).toContain('main egress: unreachable');
    expect(JSON.parse(byKind.oracle!.containment ?? '{}').networkMode).toMatch(/^internal:envolve-trial-/);

    // The trial container is removed in the background once its result is read: its containers side by
    // side, the main one's disconnection from the network, then the network, each a Docker removal's allowance.
    const deadline = Date.now() + limitMs(3 * DOCKER_REMOVAL_MS);
    let left = await leftovers();
    while ((left.containers > 0 || left.networks > 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      left = await leftovers();
    }
    expect(left).toEqual({ containers: 0, networks: 0 });
  });

  it("a crashed worker's trial network is reaped once it expired, not before", async () => {
    const request = {
      bundle: composeTask(),
      imageId: '',
      agent: { kind: 'nop' as const },
      agentTimeoutSec: 5,
      verifierTimeoutSec: 5,
      labels: { 'envolve.run': `${run}-reap` },
    };
    const services = await startServices(sandbox.docker, { sidecars: [], mainDependsOn: {} }, request); // as if its worker died here
    const scope = { labels: [`envolve.run=${run}-reap`] };
    expect(await reapTrialNetworks(sandbox.docker, scope)).toEqual([]);
    expect(await reapTrialNetworks(sandbox.docker, { ...scope, now: new Date(Date.now() + 3600_000) })).toEqual([services.network.name]);
  });

  it('as Harbor writes it (expose, a healthcheck, depends_on service_healthy, a registry-tagged sidecar image) validates with --map-base-image', async () => {
    const versionId = await storeBundle(testDb.db, harborComposeTask(), { source: 'import' });
    const runs = await validateEnvironment({
      db: testDb.db,
      sandbox,
      versionId,
      baseImages: { images: {}, unmatchedToBase: true },
      labels: { 'envolve.run': run },
    });
    const byKind = Object.fromEntries(runs.map((r) => [r.kind, r]));
    expect(byKind.oracle, `${byKind.oracle?.error}\n${byKind.oracle?.agentLog}`).toMatchObject({ verdict: 'passed', reward: 1 });
    expect(byKind['invalid-test']).toMatchObject({ verdict: 'passed', reward: 0 });
    // The sidecar's registry image was mapped like a FROM line, to the matching toolchain, and the record says so.
    const toolchainId = (await sandbox.docker.getImage('envolve/toolchain:python').inspect()).Id;
    expect(JSON.parse(byKind.oracle!.build ?? '{}').mapped).toContainEqual({ from: 'python:3.12-slim', to: 'envolve/toolchain:python', imageId: toolchainId });
  });

  it("a sidecar gets the task's own files from read-only volumes, and cannot change them", async () => {
    const versionId = await storeBundle(testDb.db, volumeTask(), { source: 'import' });
    const runs = await validateEnvironment({ db: testDb.db, sandbox, versionId, labels: { 'envolve.run': run } });
    const byKind = Object.fromEntries(runs.map((r) => [r.kind, r]));
    expect(byKind.oracle, `${byKind.oracle?.error}\n${byKind.oracle?.agentLog}`).toMatchObject({ verdict: 'passed', reward: 1 });
    expect(byKind['invalid-test']).toMatchObject({ verdict: 'passed', reward: 0 });
  });

  it('a sidecar image this machine lacks fails the build with the flags that map it', async () => {
    const versionId = await storeBundle(testDb.db, harborComposeTask(), { source: 'import' });
    const runs = await validateEnvironment({ db: testDb.db, sandbox, versionId });
    for (const r of runs) {
      expect(r).toMatchObject({ verdict: 'error', status: 'build-failed', imageId: null });
      expect(r.error).toBe(
        "image build failed: the image of service 'api' 'python:3.12-slim' is not available on this machine (no registry access); " +
          "map it to a local image with --base-image 'python:3.12-slim=<local image>', or build it on envolve/base:bookworm with --map-base-image",
      );
    }
  });

  it('refuses at validation what it cannot run, with the reason', async () => {
    const refusals = {
      'services:\n  main:\n    build: .\n  db:\n    build: ./db\n':
        "service 'db' uses build (only main is built; a sidecar runs an image), which Envolve does not run",
      'services:\n  main:\n    build: .\n  api:\n    image: envolve/base:bookworm\n    volumes: ["./site:/srv:ro"]\n':
        "service 'api' mounts environment/site, which is not among the task's files",
    };
    for (const [compose, reason] of Object.entries(refusals)) {
      const versionId = await storeBundle(testDb.db, helloTask({ 'environment/docker-compose.yaml': compose }), { source: 'import' });
      const runs = await validateEnvironment({ db: testDb.db, sandbox, versionId });
      for (const r of runs) {
        expect(r).toMatchObject({ verdict: 'error', status: 'refused', imageId: null });
        expect(r.error).toBe(`refused: environment/docker-compose.yaml: ${reason}`);
      }
    }
  });
});
