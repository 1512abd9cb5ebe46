// A lab builds behind a package mirror. A task FROM python:3.12-slim (a registry image this
// machine lacks, mapped by --map-base-image to the python toolchain) pip-installs its
// requirements with --require-hashes; the only index it can reach is one this test serves on
// loopback, holding wheels the test makes. With the mirror setting it builds and validates
// (oracle 1, nop 0); the mirror is on the run's record, not in the task's files, its content
// hash or the image's environment.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { contentHash } from '../../lib/env/content-hash.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { findOrCreateLineage, setLineageBuildMirrors } from '../../lib/evolution/lineage.ts';
import { versionSandbox } from '../../lib/evolution/lineage-sandbox.ts';
import { DockerSandbox, ensureBaseImage, type Sandbox } from '../../lib/sandbox/index.ts';
import type { BuildMirrors } from '../../lib/sandbox/build-mirrors.ts';
import { ensureToolchainImage } from '../../lib/sandbox/toolchain-images.ts';
import { validateEnvironment } from '../../lib/validate/validate-environment.ts';
import { helloTask } from '../sandbox/fixtures.ts';
import { makeWheel, serveWheelIndex, type WheelIndex } from '../sandbox/wheel-index.ts';

const sandbox = new DockerSandbox();
let testDb: TestDb;
let index: WheelIndex;
const nonce = randomUUID().slice(0, 8);
// Values only these wheels carry: the oracle can print them only if pip installed them.
const WHEELS = [makeWheel('envolve-probe-a', '1.0', 'envolve_probe_a', `a-${nonce}`), makeWheel('envolve-probe-b', '2.1', 'envolve_probe_b', `b-${nonce}`)];

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  await ensureToolchainImage(sandbox.docker, 'python');
  index = await serveWheelIndex(WHEELS);
  testDb = await createTestDb();
});
afterAll(async () => {
  await index?.close();
  await testDb?.cleanup();
});

// `label` makes the image new (a cached one would be reused whatever the mirror).
function pipTask(label = nonce) {
  const requirements = WHEELS.map((w) => `${w.project}==${w.version} --hash=sha256:${w.sha256}`).join('\n');
  return helloTask({
    'environment/Dockerfile': [
      'FROM python:3.12-slim',
      `LABEL envolve.test.nonce=${label}`,
      'COPY requirements.txt /tmp/requirements.txt',
      'RUN pip install --no-cache-dir --require-hashes -r /tmp/requirements.txt',
      'RUN mkdir -p /app && chown agent:agent /app',
      'WORKDIR /app',
      'USER agent',
      '',
    ].join('\n'),
    'environment/requirements.txt': `${requirements}\n`,
    'solution/solve.sh': '#!/bin/bash\npython3 -c "import envolve_probe_a as a, envolve_probe_b as b; print(a.VALUE + b.VALUE)" > /app/out.txt\n',
    'tests/test.sh': `#!/bin/bash\nif [ "$(cat /app/out.txt 2>/dev/null)" = "a-${nonce}b-${nonce}" ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n`,
  });
}

// What the settings give every build when ENVOLVE_BUILD_PIP_INDEX_URL is set (read once per
// process), unless a lineage's own mirrors come with the build.
function behindMirror(mirrors: BuildMirrors): Sandbox {
  return {
    buildEnvironmentImage: (bundle, opts) => sandbox.buildEnvironmentImage(bundle, { ...opts, mirrors: opts?.mirrors ?? { mirrors, source: 'deployment' } }),
    runTrial: (request) => sandbox.runTrial(request),
    reapContainers: (opts) => sandbox.reapContainers(opts),
    runChecks: (request) => sandbox.runChecks(request),
  };
}

describe('builds behind a package mirror', () => {
  it('pip install --require-hashes builds against the loopback index, and the task validates offline', async () => {
    const task = pipTask();
    const hashBefore = contentHash(task);
    const versionId = await storeBundle(testDb.db, task, { source: 'import' });
    const runs = await validateEnvironment({
      db: testDb.db,
      sandbox: behindMirror({ pipIndexUrl: index.url }),
      versionId,
      baseImages: { images: {}, unmatchedToBase: true },
    });
    const byKind = Object.fromEntries(runs.map((r) => [r.kind, r]));
    expect(byKind.oracle, `${byKind.oracle?.error}\n${byKind.oracle?.agentLog}`).toMatchObject({ verdict: 'passed', reward: 1 });
    expect(byKind['invalid-test']).toMatchObject({ verdict: 'passed', reward: 0 });

    // The wheels came from this index, the build was told so, and the run says which mirror.
    expect(index.requested).toEqual(expect.arrayContaining(['/simple/envolve-probe-a/', ...WHEELS.map((w) => `/files/${w.filename}`)]));
    const build = JSON.parse(byKind.oracle!.build ?? '{}');
    expect(build.mirrors).toEqual({ ENVOLVE_BUILD_PIP_INDEX_URL: index.url });
    const toolchainId = (await sandbox.docker.getImage('envolve/toolchain:python').inspect()).Id;
    expect(build.mapped).toEqual([{ from: 'python:3.12-slim', to: 'envolve/toolchain:python', imageId: toolchainId }]);

    // The task is stored as written (a version's id is its content hash); the image keeps no
    // mirror in its environment.
    expect(versionId).toBe(hashBefore);
    const env = (await sandbox.docker.getImage(byKind.oracle!.imageId!).inspect()).Config.Env ?? [];
    expect(env.filter((e) => /INDEX_URL/.test(e))).toEqual([]);
  });

  it('a mirror host that does not resolve fails before the build runs, naming the host, the tool and the setting', async () => {
    const versionId = await storeBundle(testDb.db, pipTask(`${nonce}-unresolved`), { source: 'import' });
    const runs = await validateEnvironment({
      db: testDb.db,
      sandbox: behindMirror({ pipIndexUrl: 'http://pypi-mirror.invalid/simple/' }),
      versionId,
      baseImages: { images: {}, unmatchedToBase: true },
    });
    for (const r of runs) {
      expect(r).toMatchObject({ verdict: 'error', status: 'build-failed', imageId: null });
      expect(r.error).toBe(
        'image build failed: the build fetches from pypi-mirror.invalid (pip), which does not resolve from this machine (ENVOLVE_BUILD_NETWORK=default, ' +
          `${JSON.parse(r.build ?? '{}').network.mode} network)`,
      );
      expect(JSON.parse(r.build ?? '{}')).toMatchObject({
        mirrors: { ENVOLVE_BUILD_PIP_INDEX_URL: 'http://pypi-mirror.invalid/simple/' },
        mirrorsSource: 'deployment',
      });
    }
  });

  it("a lineage's own mirror replaces the deployment's for its versions' builds, and the run records it as the lineage's", async () => {
    const versionId = await storeBundle(testDb.db, pipTask(`${nonce}-lineage`), { source: 'import' });
    const lineage = await findOrCreateLineage(testDb.db, versionId, { axisPolicy: { kind: 'round-robin' }, effort: 'low', synthesiser: 'procedural', seed: 1 });
    await setLineageBuildMirrors(testDb.db, { id: null, email: 'cli:test' }, lineage.row.id, {
      buildMirrors: { pipIndexUrl: 'http://lineage-mirror.invalid/simple/' },
    });
    // The deployment points at the loopback index; the lineage's unresolvable mirror wins.
    const runs = await validateEnvironment({
      db: testDb.db,
      sandbox: await versionSandbox(testDb.db, behindMirror({ pipIndexUrl: index.url }), versionId),
      versionId,
      baseImages: { images: {}, unmatchedToBase: true },
    });
    for (const r of runs) {
      expect(r).toMatchObject({ verdict: 'error', status: 'build-failed' });
      expect(r.error).toContain('the build fetches from lineage-mirror.invalid (pip)');
      expect(JSON.parse(r.build ?? '{}')).toMatchObject({
        mirrors: { ENVOLVE_BUILD_PIP_INDEX_URL: 'http://lineage-mirror.invalid/simple/' },
        mirrorsSource: 'lineage',
      });
    }
  });
});
