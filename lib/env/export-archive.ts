// A stored version as a Harbor task tarball (.tar.gz): the task's files at the archive root,
// executable bits kept, plus the envolve.json sidecar; `envolve env import` reads it back.
import { createGzip } from 'node:zlib';
import { buffer } from 'node:stream/consumers';
import type { PrismaClient } from '../db/index.ts';
import { packTar } from '../bundle/index.ts';
import { METADATA_SIDECAR } from './content-hash.ts';
import { renderSidecar } from './sidecar.ts';
import { getVersion, loadBundle } from './store.ts';
import { GenerationState } from '../states/index.ts';

export async function exportTaskTarball(db: PrismaClient, versionId: string): Promise<{ name: string; content: Buffer }> {
  const version = await getVersion(db, versionId);
  if (!version) throw new Error(`environment version ${versionId} not found`);
  const bundle = await loadBundle(db, versionId);
  const released = await db.generation.findMany({
    where: { versionId, state: GenerationState.released },
    orderBy: [{ lineageId: 'asc' }, { number: 'asc' }],
    select: { lineageId: true, number: true, releasedByPolicy: true },
  });
  const releases = released.map((g) => ({ lineageId: g.lineageId, generation: g.number, released_by: g.releasedByPolicy }));
  const sidecar = renderSidecar({ versionId, name: version.name, source: version.source, metadata: version.metadata, releases });
  const entries = [
    ...bundle.files.filter((f) => f.path !== METADATA_SIDECAR).map((f) => ({ path: f.path, content: f.content, executable: f.executable })),
    { path: METADATA_SIDECAR, content: Buffer.from(sidecar), executable: false },
  ];
  return { name: version.name, content: await buffer(packTar(entries).pipe(createGzip())) };
}
