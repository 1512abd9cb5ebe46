// A lineage's own build mirrors: validated as the settings are, audited, and carried by every
// build on the lineage's behalf in place of the deployment's; cleared, builds read the settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { settingsFrom } from '../config/settings.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { buildMirrorsSetting, resolveBuildMirrors } from '../sandbox/build-mirrors.ts';
import type { BuildOptions, Sandbox } from '../sandbox/types.ts';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import { findOrCreateLineage, loadLineage, setLineageBuildMirrors } from './lineage.ts';
import { versionSandbox } from './lineage-sandbox.ts';
import { lineageReport } from './report.ts';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => testDb.cleanup());

const settings = { axisPolicy: { kind: 'round-robin' }, effort: 'low', synthesiser: 'procedural', seed: 5 } as const;
const actor = { id: null, email: 'cli:test' };

// Records the options each build reaches the engine with.
function recordingSandbox(seen: BuildOptions[]): Sandbox {
  return {
    buildEnvironmentImage: async (_bundle, opts = {}) => (seen.push(opts), {}) as never,
    runTrial: async () => ({}) as never,
    reapContainers: async () => [],
    runChecks: async () => ({}) as never,
  };
}

describe("a lineage's build mirrors", () => {
  it('override the deployment for every build of its versions; cleared, the builds read the settings again', async () => {
    const { db } = testDb;
    const seed = await seedEnvironment(db, { name: 'mirrored-seed' });
    const lineage = await findOrCreateLineage(db, seed, settings);
    const seen: BuildOptions[] = [];
    const base = recordingSandbox(seen);

    const mirrors = { pipIndexUrl: 'https://bot:s3cret@devpi.lab/root/pypi/+simple/', goProxy: 'https://goproxy.lab,direct' };
    await setLineageBuildMirrors(db, actor, lineage.row.id, { buildMirrors: mirrors });
    await (await versionSandbox(db, base, seed)).buildEnvironmentImage({} as never);
    expect(seen.at(-1)?.mirrors).toEqual({ mirrors, source: 'lineage' });
    expect((await lineageReport(db, lineage.row.id)).buildMirrors).toEqual({
      source: 'lineage',
      mirrors: { ENVOLVE_BUILD_PIP_INDEX_URL: 'https://***@devpi.lab/root/pypi/+simple/', ENVOLVE_BUILD_GOPROXY: 'https://goproxy.lab,direct' },
    });

    await setLineageBuildMirrors(db, actor, lineage.row.id, { buildMirrors: null });
    expect((await loadLineage(db, lineage.row.id)).settings.buildMirrors).toBeUndefined();
    await (await versionSandbox(db, base, seed)).buildEnvironmentImage({} as never);
    expect(seen.at(-1)?.mirrors).toBeUndefined(); // the build falls back to the settings
    expect((await lineageReport(db, lineage.row.id)).buildMirrors.source).toBe('deployment');

    const audit = await db.auditEvent.findMany({ where: { subjectId: lineage.row.id, action: 'lineage.build-mirrors' }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => [JSON.parse(a.before ?? 'null'), JSON.parse(a.after ?? 'null')])).toEqual([
      [
        { buildMirrors: null },
        { buildMirrors: { ENVOLVE_BUILD_PIP_INDEX_URL: 'https://***@devpi.lab/root/pypi/+simple/', ENVOLVE_BUILD_GOPROXY: 'https://goproxy.lab,direct' } },
      ],
      [
        { buildMirrors: { ENVOLVE_BUILD_PIP_INDEX_URL: 'https://***@devpi.lab/root/pypi/+simple/', ENVOLVE_BUILD_GOPROXY: 'https://goproxy.lab,direct' } },
        { buildMirrors: null },
      ],
    ]);
  });

  it('a lineage override beats the deployment; without one the deployment settings apply', () => {
    const deployment = buildMirrorsSetting(
      settingsFrom({ ENVOLVE_BUILD_PIP_INDEX_URL: 'https://artifactory.lab/api/pypi/simple/', ENVOLVE_BUILD_HTTP_PROXY: 'http://proxy.lab:3128' }),
    );
    const own = { npmRegistry: 'https://npm.lab/' };
    expect(resolveBuildMirrors(own, deployment)).toEqual({ mirrors: own, source: 'lineage' });
    expect(resolveBuildMirrors(undefined, deployment)).toEqual({
      mirrors: { pipIndexUrl: 'https://artifactory.lab/api/pypi/simple/', httpProxy: 'http://proxy.lab:3128' },
      source: 'deployment',
    });
  });

  it('refuses what the settings would refuse, an unknown mirror and an empty set, changing nothing', async () => {
    const { db } = testDb;
    const lineage = await findOrCreateLineage(db, await seedEnvironment(db, { name: 'refused-mirrors' }), settings);
    await expect(setLineageBuildMirrors(db, actor, lineage.row.id, { buildMirrors: { pipIndexUrl: 'ftp://mirror.lab/' } })).rejects.toThrow(
      'expected an http:// or https:// URL',
    );
    await expect(setLineageBuildMirrors(db, actor, lineage.row.id, { buildMirrors: { pipIndexURL: 'https://x.lab/' } as never })).rejects.toThrow(ZodError);
    await expect(setLineageBuildMirrors(db, actor, lineage.row.id, { buildMirrors: {} })).rejects.toThrow('name at least one mirror');
    expect((await loadLineage(db, lineage.row.id)).row.buildMirrors).toBeNull();
    expect(await db.auditEvent.count({ where: { subjectId: lineage.row.id } })).toBe(0);
  });
});
