// Harbor's build contract against the real engine: a task that installs a Debian package at build
// time builds and validates with the default settings (the network is on for the build, off for
// the trials), fails in one sentence naming the setting under ENVOLVE_BUILD_NETWORK=none, and a
// digest-pinned FROM builds on the local image it is mapped to, the mapping recorded.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import type { TaskBundle } from '../../lib/bundle/bundle.ts';
import { storeBundle } from '../../lib/env/store.ts';
import type { BaseImageMapping } from '../../lib/sandbox/base-image-map.ts';
import { DockerSandbox, ensureBaseImage, type Sandbox } from '../../lib/sandbox/index.ts';
import { validateEnvironment } from '../../lib/validate/validate-environment.ts';
import { limitMs, taskBudgets, validationMs } from '../budgets.ts';
import { helloTask } from '../sandbox/fixtures.ts';

let testDb: TestDb;
const sandbox = new DockerSandbox();
// A tag this test owns on the local base: what `docker load` of a lab's image leaves behind.
const LOADED = { repo: 'envolve-test/loaded-toolchain', tag: `t${randomUUID().slice(0, 8)}` };
const LOADED_REF = `${LOADED.repo}:${LOADED.tag}`;
const DIGEST = `sha256:${'5e'.repeat(32)}`;

beforeAll(async () => {
  const base = await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  await sandbox.docker.getImage(base.imageId).tag(LOADED);
  testDb = await createTestDb();
});
afterAll(async () => {
  await sandbox.docker.getImage(LOADED_REF).remove({ noprune: true });
  await testDb.cleanup();
});

// `tree` is not in the base: the oracle can only use it if the build installed it.
function aptTask(): TaskBundle {
  return helloTask({
    'environment/Dockerfile':
      `FROM envolve/base:bookworm\nLABEL envolve.test.nonce=${randomUUID()}\n` +
      'RUN apt-get update && apt-get install -y --no-install-recommends tree && rm -rf /var/lib/apt/lists/*\n' +
      'RUN mkdir /app && chown agent:agent /app\nWORKDIR /app\nUSER agent\n',
    'solution/solve.sh': '#!/bin/bash\ntree --version > /app/out.txt\n',
    'tests/test.sh': '#!/bin/bash\nif grep -q "^tree v" /app/out.txt 2>/dev/null; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n',
  });
}

// Every test validates one task (its budgets are the task.toml's: helloTask's, unless a test gives its own).
const validationLimitMs = (bundle: TaskBundle) => limitMs(validationMs(taskBudgets(bundle)));

async function validate(bundle: TaskBundle, baseImages?: BaseImageMapping, on: Sandbox = sandbox) {
  const versionId = await storeBundle(testDb.db, bundle, { source: 'import' });
  const runs = await validateEnvironment({ db: testDb.db, sandbox: on, versionId, baseImages });
  return Object.fromEntries(runs.map((r) => [r.kind, r]));
}

describe('the build network', () => {
  it(
    'is on by default: an apt-get install at build time builds, and the task validates offline',
    async () => {
      const byKind = await validate(aptTask());
      expect(byKind.oracle, byKind.oracle?.error ?? '').toMatchObject({ verdict: 'passed', reward: 1 });
      expect(byKind['invalid-test']).toMatchObject({ verdict: 'passed', reward: 0 });
      const build = JSON.parse(byKind.oracle!.build ?? '{}');
      expect(build.network.setting).toBe('default');
      // This engine has no default bridge (dockerd --bridge=none): `default` builds on the host network.
      const hasBridge = await sandbox.docker
        .getNetwork('bridge')
        .inspect()
        .then(
          () => true,
          () => false,
        );
      expect(build.network.mode).toBe(hasBridge ? 'bridge' : 'host');
      expect(JSON.parse(byKind.oracle!.containment ?? '{}').networkMode).toBe('none');
    },
    validationLimitMs(aptTask()),
  );

  it(
    'under ENVOLVE_BUILD_NETWORK=none fails on both validators with one sentence naming the setting',
    async () => {
      // What settings() gives every build when ENVOLVE_BUILD_NETWORK=none (read once per process).
      const noNetwork: Sandbox = {
        buildEnvironmentImage: (bundle, opts) => sandbox.buildEnvironmentImage(bundle, { ...opts, network: 'none' }),
        runTrial: (request) => sandbox.runTrial(request),
        reapContainers: (opts) => sandbox.reapContainers(opts),
        runChecks: (request) => sandbox.runChecks(request),
      };
      const byKind = await validate(aptTask(), undefined, noNetwork);
      for (const run of Object.values(byKind)) {
        expect(run).toMatchObject({ verdict: 'error', status: 'build-failed', reward: null });
        expect(run.error!.split('\n')[0]).toBe(
          'image build failed: the build needs the network and ENVOLVE_BUILD_NETWORK=none gives it none; set ENVOLVE_BUILD_NETWORK=default to build it',
        );
        expect(run.error).toContain('--- build log (tail) ---');
        expect(JSON.parse(run.build ?? '{}').network).toEqual({ setting: 'none', mode: 'none' });
      }
    },
    validationLimitMs(aptTask()),
  );
});

describe('base-image mapping', () => {
  const pinned = `${LOADED_REF}@${DIGEST}`;
  const pinnedTask = () => helloTask({ 'environment/Dockerfile': `FROM ${pinned}\nRUN mkdir /app && chown agent:agent /app\nWORKDIR /app\nUSER agent\n` });

  it(
    'a digest-pinned FROM whose image was loaded without its digest fails with the flag that maps it',
    async () => {
      const byKind = await validate(pinnedTask());
      expect(byKind.oracle).toMatchObject({ verdict: 'error', status: 'build-failed' });
      expect(byKind.oracle!.error).toBe(
        `image build failed: base image '${pinned}' is not available on this machine (no registry access); ` +
          `it is here as '${LOADED_REF}' without its repo digest (a loaded image loses it): build on it with --base-image '${pinned}=${LOADED_REF}'`,
      );
    },
    validationLimitMs(pinnedTask()),
  );

  it(
    'mapped to the loaded image it builds and validates, and the record says what was mapped to what',
    async () => {
      const byKind = await validate(pinnedTask(), { images: { [pinned]: LOADED_REF }, unmatchedToBase: false });
      expect(byKind.oracle, byKind.oracle?.error ?? '').toMatchObject({ verdict: 'passed', reward: 1 });
      expect(byKind['invalid-test']).toMatchObject({ verdict: 'passed', reward: 0 });
      const { mapped } = JSON.parse(byKind.oracle!.build ?? '{}');
      const loadedId = (await sandbox.docker.getImage(LOADED_REF).inspect()).Id;
      expect(mapped).toEqual([{ from: pinned, to: LOADED_REF, imageId: loadedId }]);
    },
    validationLimitMs(pinnedTask()),
  );

  it(
    'a mapping to an image this machine lacks says so',
    async () => {
      const byKind = await validate(pinnedTask(), { images: { [LOADED.repo]: 'envolve-test/not-loaded:1' }, unmatchedToBase: false });
      expect(byKind.oracle!.error).toContain(`base image '${pinned}' is mapped to 'envolve-test/not-loaded:1', which is not on this machine`);
    },
    validationLimitMs(pinnedTask()),
  );
});

describe('tasks Envolve runs differently from Harbor', () => {
  const OFFLINE_TASK = helloTask({
    'task.toml': '[environment]\nallow_internet = true\n[agent]\ntimeout_sec = 60\n[verifier]\ntimeout_sec = 60\n',
    'solution/solve.sh': '#!/bin/bash\ncurl -fsS --max-time 5 http://deb.debian.org/debian/README > /app/out.txt || echo "download failed"\n',
    'tests/test.sh': '#!/bin/bash\nif grep -qi debian /app/out.txt 2>/dev/null; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n',
  });

  it(
    'a task asking for internet is run offline, and its validation says so and what failed',
    async () => {
      const byKind = await validate(OFFLINE_TASK);
      expect(byKind.oracle).toMatchObject({ verdict: 'failed', reward: 0 });
      expect(byKind.oracle!.error).toMatch(
        /^Envolve ran this task offline although it asks for internet \(\[environment\] allow_internet = true\); what failed: /,
      );
      expect(byKind.oracle!.agentLog).toContain('download failed');
    },
    validationLimitMs(OFFLINE_TASK),
  );

  it(
    'a multi-container task Envolve cannot run is refused at validation with the reason, nothing run',
    async () => {
      const byKind = await validate(helloTask({ 'environment/docker-compose.yaml': 'services:\n  web:\n    image: nginx\n' }));
      for (const run of Object.values(byKind)) {
        expect(run).toMatchObject({ verdict: 'error', status: 'refused', imageId: null });
        expect(run.error).toBe("refused: environment/docker-compose.yaml has no 'main' service (the container the agent and the tests run in)");
      }
    },
    validationLimitMs(helloTask()),
  );
});
