// The residual of an attempt as the review page shows it: a summary row per file (sizes and
// hashes, no content), and one file's line diff computed on demand when the reviewer opens it.
// Keeping the diff out of the page render is what keeps a 200-file residual fast.
import { createHash } from 'node:crypto';
import type { Db } from '../db/index.ts';
import type { StoredFileChange } from '../env/index.ts';
import { diffLines, toHunks } from '../review/index.ts';
import type { FileDiffView, ResidualFileSummary } from './generation-types.ts';

// Larger files are summarised, not diffed: a browser cannot usefully show a line diff of them.
export const LARGE_FILE_BYTES = 200 * 1024;

function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

function isBinary(content: Buffer): boolean {
  return content.includes(0) || !Buffer.from(content.toString('utf8'), 'utf8').equals(content);
}

export function parseStoredResidual(raw: string | null): StoredFileChange[] {
  if (!raw) return [];
  const parsed = JSON.parse(raw) as unknown;
  return Array.isArray(parsed) ? (parsed as StoredFileChange[]) : [];
}

function newContent(change: StoredFileChange): Buffer | null {
  if (change.op === 'delete') return null;
  return Buffer.from(change.content ?? '', change.encoding === 'base64' ? 'base64' : 'utf8');
}

// A reviewer reads a task the way it is meant to be understood: what is asked, how it is
// checked, how it is solved, then the data it works on.
const READING_ORDER: ((path: string) => boolean)[] = [
  (path) => path === 'instruction.md' || path === 'task.toml',
  (path) => path.startsWith('tests/'),
  (path) => path.startsWith('solution/'),
];

function readingRank(path: string): number {
  const rank = READING_ORDER.findIndex((matches) => matches(path));
  return rank < 0 ? READING_ORDER.length : rank;
}

// How the task's environment is built is read like code, not skimmed like data.
const ENVIRONMENT_BUILD_FILE = /(^|\/)(Dockerfile|docker-compose\.ya?ml)$/;

/** Whether a residual file is data the task works on: not its instruction, tests, solution or environment build. */
export function isDataFile(path: string): boolean {
  return readingRank(path) === READING_ORDER.length && !ENVIRONMENT_BUILD_FILE.test(path);
}

/** Residual files in reading order: instruction → tests → solution → data, by path within each. */
export function inReadingOrder<T extends { path: string }>(files: readonly T[]): T[] {
  return [...files].sort((a, b) => readingRank(a.path) - readingRank(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export async function residualSummary(db: Db, parentVersionId: string, changes: StoredFileChange[]): Promise<ResidualFileSummary[]> {
  const parentFiles = await db.environmentFile.findMany({
    where: { versionId: parentVersionId, path: { in: changes.map((c) => c.path) } },
    select: { path: true, blobHash: true, executable: true, blob: { select: { size: true } } },
  });
  const before = new Map(parentFiles.map((f) => [f.path, f]));
  return inReadingOrder(changes).map((change) => {
    const old = before.get(change.path);
    const content = newContent(change);
    const oldSize = old?.blob.size ?? null;
    const newSize = content?.length ?? null;
    const newSha256 = content ? sha256(content) : null;
    return {
      path: change.path,
      op: change.op,
      oldSize,
      newSize,
      oldSha256: old?.blobHash ?? null,
      newSha256,
      contentSha256: newSha256 ?? sha256(Buffer.from(`deleted ${old?.blobHash ?? ''}`)),
      data: isDataFile(change.path),
      binary: change.encoding === 'base64',
      large: Math.max(oldSize ?? 0, newSize ?? 0) > LARGE_FILE_BYTES,
      executableChanged: Boolean(old && change.op !== 'delete' && old.executable !== Boolean(change.executable)),
    };
  });
}

export async function residualFileDiff(db: Db, parentVersionId: string, change: StoredFileChange): Promise<FileDiffView> {
  const parentFile = await db.environmentFile.findUnique({
    where: { versionId_path: { versionId: parentVersionId, path: change.path } },
    select: { blob: { select: { content: true } } },
  });
  const oldContent = parentFile ? Buffer.from(parentFile.blob.content) : null;
  const content = newContent(change);
  const sides = { old: oldContent, new: content };
  const binary = [sides.old, sides.new].some((c) => c !== null && isBinary(c));
  const large = [sides.old, sides.new].some((c) => c !== null && c.length > LARGE_FILE_BYTES);
  if (binary || large) {
    const facts = (c: Buffer | null) => (c ? { size: c.length, sha256: sha256(c) } : null);
    return { kind: 'summary', path: change.path, op: change.op, reason: binary ? 'binary' : 'large', old: facts(sides.old), new: facts(sides.new) };
  }
  const { hunks, skippedAfter } = toHunks(diffLines(sides.old?.toString('utf8') ?? '', sides.new?.toString('utf8') ?? ''));
  return { kind: 'text', path: change.path, op: change.op, hunks, skippedAfter };
}
