// A seed whose image cannot build is not retried: one evolve fails one generation once, with the
// build's error printed once; mapped (the lineage's base-image setting) the same seed evolves.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { importPath } from '../../lib/env/import.ts';
import { evolveLineage, findOrCreateLineage, loadLineage } from '../../lib/evolution/index.ts';
import type { BaseImageMapping } from '../../lib/sandbox/base-image-map.ts';
import { DockerSandbox, ensureBaseImage, withBaseImages } from '../../lib/sandbox/index.ts';
import { ProceduralSynthesiser, SandboxArtifactSource } from '../../lib/synth/procedural/index.ts';
import { context } from './helpers.ts';

const docker = new DockerSandbox();
const PINNED = `lab.example/toolchain:1@sha256:${'7a'.repeat(32)}`;
let testDb: TestDb;
let seedVersionId: string;
let dir: string;

beforeAll(async () => {
  await ensureBaseImage({ docker: docker.docker, progress: () => {} });
  testDb = await createTestDb();
  dir = await mkdtemp(join(tmpdir(), 'envolve-pinned-seed-'));
  await cp('examples/tasks/access-log-report', dir, { recursive: true });
  await writeFile(
    join(dir, 'environment/Dockerfile'),
    `FROM ${PINNED}\nCOPY access.log /app/access.log\nRUN chown -R agent:agent /app\nWORKDIR /app\nUSER agent\n`,
  );
  const [imported] = await importPath(testDb.db, dir);
  seedVersionId = imported!.versionId!;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await testDb.cleanup();
});

// What `envolve evolve` does: every build of the lineage goes through its mapping.
async function evolve(seed: number, baseImages?: BaseImageMapping) {
  const lineage = await findOrCreateLineage(testDb.db, seedVersionId, {
    axisPolicy: { kind: 'fixed', axis: 'length' },
    effort: 'low',
    synthesiser: 'procedural',
    seed,
    baseImages,
  });
  const settings = (await loadLineage(testDb.db, lineage.row.id)).settings;
  const sandbox = withBaseImages(docker, settings.baseImages);
  const synthesiser = new ProceduralSynthesiser({ artifactSource: new SandboxArtifactSource(sandbox) });
  const log: string[] = [];
  const result = await evolveLineage(context(testDb.db, sandbox, synthesiser, log), lineage.row.id, 1);
  return { lineageId: lineage.row.id, result, log };
}

describe('an image that does not build', () => {
  it('fails one generation once, not retried by the modify loop or the next generation', async () => {
    const { lineageId, result, log } = await evolve(61);
    expect(result.validated).toHaveLength(0);
    expect(result.failed).toHaveLength(1);
    expect(result.buildFailed?.id).toBe(result.failed[0]!.id);
    const generations = await testDb.db.generation.findMany({ where: { lineageId }, include: { attempts: true } });
    expect(generations).toHaveLength(1);
    expect(generations[0]!.attempts.map((a) => a.state)).toEqual(['build-failed']);
    const error = generations[0]!.error ?? '';
    expect(error).toContain(`base image '${PINNED}' is not available on this machine`);
    expect(error.split(`base image '${PINNED}'`)).toHaveLength(2); // said once
    expect(log.join('\n').split(`base image '${PINNED}'`).length).toBeLessThanOrEqual(2);
    expect((await testDb.db.lineage.findUniqueOrThrow({ where: { id: lineageId } })).status).toBe('stalled');
  });

  it("evolves with the lineage's mapping of the pinned FROM to a local image", async () => {
    const { lineageId, result, log } = await evolve(62, { images: { 'lab.example/toolchain:1': 'envolve/base:bookworm' }, unmatchedToBase: false });
    expect(result.validated, log.join('\n')).toHaveLength(1);
    const runs = await testDb.db.validatorRun.findMany({ where: { versionId: result.validated[0]!.versionId!, kind: 'oracle' } });
    expect(runs[0]).toMatchObject({ verdict: 'passed', reward: 1 });
    expect(JSON.parse(runs[0]!.build ?? '{}').mapped[0]).toMatchObject({ from: PINNED, to: 'envolve/base:bookworm' });
    expect(JSON.parse((await testDb.db.lineage.findUniqueOrThrow({ where: { id: lineageId } })).config).baseImages.images).toEqual({
      'lab.example/toolchain:1': 'envolve/base:bookworm',
    });
  });
});
