// What the agent produced: the regular files under some directories that are new or changed
// between the start and the end of the agent phase. Read as tars with getArchive (no exec, so it
// works whatever the image holds); the first snapshot keeps only hashes, the second the contents
// of what changed, up to a byte budget.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import tar from 'tar-stream';
import { isNotFound } from './docker.ts';
import type { CapturedOutputs } from './types.ts';

export const DEFAULT_CAPTURE_BYTES = 5 * 1024 * 1024;

type Visit = (path: string, content: Buffer) => void;

async function walkRegularFiles(container: Docker.Container, dir: string, visit: Visit): Promise<void> {
  let stream: NodeJS.ReadableStream;
  try {
    stream = await container.getArchive({ path: dir });
  } catch (err) {
    if (isNotFound(err)) return;
    throw err;
  }
  const extract = tar.extract();
  Readable.from(stream as AsyncIterable<Buffer>).pipe(extract);
  // getArchive names entries relative to the directory's parent ("app/report.json" for /app).
  const parent = posix.dirname(posix.resolve('/', dir));
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    if (entry.header.type === 'file') visit(posix.join(parent, entry.header.name), Buffer.concat(chunks));
  }
}

const digest = (content: Buffer): string => createHash('sha256').update(content).digest('hex');

export async function snapshotHashes(container: Docker.Container, dirs: string[]): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const dir of dirs) await walkRegularFiles(container, dir, (path, content) => hashes.set(path, digest(content)));
  return hashes;
}

export async function changedFiles(container: Docker.Container, dirs: string[], before: Map<string, string>, maxBytes: number): Promise<CapturedOutputs> {
  const captured: CapturedOutputs = { files: [], truncated: false };
  let bytes = 0;
  for (const dir of dirs) {
    await walkRegularFiles(container, dir, (path, content) => {
      if (before.get(path) === digest(content)) return;
      if (bytes + content.length > maxBytes) {
        captured.truncated = true;
        return;
      }
      bytes += content.length;
      captured.files.push({ path, content });
    });
  }
  captured.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return captured;
}
