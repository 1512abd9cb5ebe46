// Which lineage a version's work runs under, and that continuing a lineage never changes its
// runtime on the side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { InvalidInputError } from '../errors/index.ts';
import type { Sandbox, TrialRequest } from '../sandbox/types.ts';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import { findOrCreateLineage } from './lineage.ts';
import { lineageOfVersion, versionSandbox } from './lineage-sandbox.ts';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => testDb.cleanup());

const settings = { axisPolicy: { kind: 'round-robin' }, effort: 'low', synthesiser: 'procedural', seed: 3 } as const;

// Records the runtime each trial request reaches the engine with.
function recordingSandbox(seen: (string | undefined)[]): Sandbox {
  return {
    buildEnvironmentImage: async () => ({ imageId: 'sha256:x', cached: true, durationMs: 0 }) as never,
    runTrial: async (request: TrialRequest) => (seen.push(request.runtime), {}) as never,
    reapContainers: async () => [],
    runChecks: async (request) => (seen.push(request.runtime), {}) as never,
  };
}

describe("a version's lineage", () => {
  it("is the lineage it seeds or evolved in; its sandbox carries that lineage's runtime", async () => {
    const { db } = testDb;
    const seed = await seedEnvironment(db, { name: 'lineage-of-seed' });
    const child = await seedEnvironment(db, { name: 'lineage-of-child' });
    const outside = await seedEnvironment(db, { name: 'no-lineage' });
    const lineage = await findOrCreateLineage(db, seed, { ...settings, sandboxRuntime: 'runsc' });
    await db.generation.create({
      data: { lineageId: lineage.row.id, number: 1, parentVersionId: seed, versionId: child, axis: 'length', effort: 'low', state: 'approved' },
    });

    expect((await lineageOfVersion(db, seed))?.row.id).toBe(lineage.row.id);
    expect((await lineageOfVersion(db, child))?.row.id).toBe(lineage.row.id);
    expect(await lineageOfVersion(db, outside)).toBeNull();

    const seen: (string | undefined)[] = [];
    const base = recordingSandbox(seen);
    await (await versionSandbox(db, base, child)).runTrial({} as TrialRequest);
    await (await versionSandbox(db, base, child)).runChecks({ files: [], checks: [] });
    await (await versionSandbox(db, base, outside)).runTrial({} as TrialRequest);
    expect(seen).toEqual(['runsc', 'runsc', undefined]);
  });

  it('keeps its runtime when continued; a different one is refused, naming the audited command', async () => {
    const { db } = testDb;
    const seed = await seedEnvironment(db, { name: 'continued' });
    const created = await findOrCreateLineage(db, seed, { ...settings, sandboxRuntime: 'runsc' });
    expect(created.settings.sandboxRuntime).toBe('runsc');
    expect((await findOrCreateLineage(db, seed, settings)).row.id).toBe(created.row.id);
    expect((await findOrCreateLineage(db, seed, { ...settings, sandboxRuntime: 'runsc' })).settings.sandboxRuntime).toBe('runsc');
    await expect(findOrCreateLineage(db, seed, { ...settings, sandboxRuntime: 'runc' })).rejects.toThrow(InvalidInputError);
    await expect(findOrCreateLineage(db, seed, { ...settings, sandboxRuntime: 'runc' })).rejects.toThrow(
      `lineage ${created.row.id} runs under runsc; change it with \`envolve lineage sandbox-runtime ${created.row.id} runc\``,
    );
  });
});
