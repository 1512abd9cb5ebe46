// The files a rollout's agent produced, stored content-addressed in the Blob table (the same
// table environment files use), so identical outputs across rollouts are kept once.
import { createHash } from 'node:crypto';
import type { Db } from '../db/index.ts';

export interface ChangedFile {
  path: string;
  size: number;
  blobHash: string;
}

export async function storeChangedFiles(db: Db, files: Array<{ path: string; content: Buffer }>): Promise<ChangedFile[]> {
  const listed = files.map((f) => ({ path: f.path, content: f.content, blobHash: createHash('sha256').update(f.content).digest('hex') }));
  const wanted = new Map(listed.map((f) => [f.blobHash, f.content]));
  const present = await db.blob.findMany({ where: { hash: { in: [...wanted.keys()] } }, select: { hash: true } });
  for (const { hash } of present) wanted.delete(hash);
  for (const [hash, content] of wanted) {
    // Another rollout may store the same content at the same moment; its row is as good as ours.
    await db.blob.create({ data: { hash, size: content.length, content: new Uint8Array(content) } }).catch((err: unknown) => {
      if ((err as { code?: unknown }).code !== 'P2002') throw err;
    });
  }
  return listed.map((f) => ({ path: f.path, size: f.content.length, blobHash: f.blobHash }));
}
