// Tar streams in and out of containers: Docker's build context, putArchive
// and getArchive all speak tar.
import { Readable } from 'node:stream';
import tar from 'tar-stream';

export interface TarEntry {
  path: string; // relative, POSIX
  content: Buffer;
  executable: boolean;
}

// Packs files with their parent directories, owned by root, world-readable. `readOnly`: files
// only (the engine makes missing parents without changing existing ones), writable by nobody.
export function packTar(entries: TarEntry[], opts: { readOnly?: boolean } = {}): Readable {
  const pack = tar.pack();
  const dirs = new Set<string>();
  for (const entry of entries) {
    if (opts.readOnly) {
      pack.entry({ name: entry.path, mode: entry.executable ? 0o555 : 0o444, uid: 0, gid: 0 }, entry.content);
      continue;
    }
    const parts = entry.path.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (dirs.has(dir)) continue;
      dirs.add(dir);
      pack.entry({ name: `${dir}/`, type: 'directory', mode: 0o755, uid: 0, gid: 0 });
    }
    pack.entry({ name: entry.path, mode: entry.executable ? 0o755 : 0o644, uid: 0, gid: 0 }, entry.content);
  }
  pack.finalize();
  // tar-stream's streams are streamx ones; Docker's clients expect Node's.
  return Readable.from(pack);
}

// The content of the first regular file in a tar stream (getArchive of a file).
export async function firstFileIn(stream: NodeJS.ReadableStream): Promise<Buffer | undefined> {
  const extract = tar.extract();
  let found: Buffer | undefined;
  Readable.from(stream as AsyncIterable<Buffer>).pipe(extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    if (found === undefined && entry.header.type === 'file') found = Buffer.concat(chunks);
  }
  return found;
}

export async function packTarBuffer(entries: TarEntry[], opts: { readOnly?: boolean } = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of packTar(entries, opts)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every regular file in a tar, by its path in the archive. */
export async function filesIn(archive: Buffer): Promise<Map<string, Buffer>> {
  const extract = tar.extract();
  Readable.from([archive]).pipe(extract);
  const files = new Map<string, Buffer>();
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    if (entry.header.type === 'file') files.set(entry.header.name, Buffer.concat(chunks));
  }
  return files;
}
