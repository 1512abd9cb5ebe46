// The residual of an attempt as the review page shows it: a summary row per file (sizes and
// hashes, no content), and one file's line diff computed on demand when the reviewer opens it.
// Keeping the diff out of the page render is what keeps a 200-file residual fast.
import { createHash } from 'node:crypto';
import type { Db } from '../db/index.ts';
import type { StoredFileChange } from '../env/index.ts';
import { diffLines } from '../review/index.ts';
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

export function newContent(change: StoredFileChange): Buffer | null {
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

// What the review shows of one side of a file change: no content, only enough to draw its row.
export interface FileFacts {
  size: number;
  sha256: string;
  executable: boolean;
  binary: boolean;
}

export function changeFacts(change: StoredFileChange): FileFacts | null {
  const content = newContent(change);
  if (!content) return null;
  return { size: content.length, sha256: sha256(content), executable: Boolean(change.executable), binary: change.encoding === 'base64' };
}

// What a viewed mark is kept on: the new content's hash, or for a deletion the hash of "deleted <old hash>".
export function viewedContentSha256(oldSha256: string | null, newSha256: string | null): string {
  return newSha256 ?? sha256(Buffer.from(`deleted ${oldSha256 ?? ''}`));
}

function summaryOf(path: string, op: ResidualFileSummary['op'], old: FileFacts | null, neu: FileFacts | null): ResidualFileSummary {
  return {
    path,
    op,
    oldSize: old?.size ?? null,
    newSize: neu?.size ?? null,
    oldSha256: old?.sha256 ?? null,
    newSha256: neu?.sha256 ?? null,
    contentSha256: viewedContentSha256(old?.sha256 ?? null, neu?.sha256 ?? null),
    data: isDataFile(path),
    binary: Boolean(old?.binary || neu?.binary),
    large: Math.max(old?.size ?? 0, neu?.size ?? 0) > LARGE_FILE_BYTES,
    executableChanged: Boolean(old && neu && old.executable !== neu.executable),
  };
}

/** The summary row of one file changed from `old` to `neu` (null: absent on that side), or null when nothing changed. */
export function fileSummary(path: string, old: FileFacts | null, neu: FileFacts | null): ResidualFileSummary | null {
  if (!old && !neu) return null;
  if (old && neu && old.sha256 === neu.sha256 && old.executable === neu.executable) return null;
  return summaryOf(path, !old ? 'add' : !neu ? 'delete' : 'modify', old, neu);
}

/** The facts of a version's files at `paths`, by path: its stored blobs' sizes and hashes, without their content. */
export async function versionFileFacts(db: Db, versionId: string, paths: string[]): Promise<Map<string, FileFacts>> {
  const files = await db.environmentFile.findMany({
    where: { versionId, path: { in: paths } },
    select: { path: true, blobHash: true, executable: true, blob: { select: { size: true } } },
  });
  return new Map(files.map((f) => [f.path, { size: f.blob.size, sha256: f.blobHash, executable: f.executable, binary: false }]));
}

export async function residualSummary(db: Db, parentVersionId: string, changes: StoredFileChange[]): Promise<ResidualFileSummary[]> {
  const before = await versionFileFacts(
    db,
    parentVersionId,
    changes.map((c) => c.path),
  );
  // A stored change is listed as the modifier wrote it, even one that rewrote a file to the same bytes.
  return inReadingOrder(changes).map((change) => summaryOf(change.path, change.op, before.get(change.path) ?? null, changeFacts(change)));
}

/** A file's line diff from `old` to `neu` (null: absent on that side), or its summary when either side is binary or large. */
export function fileDiffView(path: string, op: ResidualFileSummary['op'], old: Buffer | null, neu: Buffer | null): FileDiffView {
  const binary = [old, neu].some((c) => c !== null && isBinary(c));
  const large = [old, neu].some((c) => c !== null && c.length > LARGE_FILE_BYTES);
  if (binary || large) {
    const facts = (c: Buffer | null) => (c ? { size: c.length, sha256: sha256(c) } : null);
    return { kind: 'summary', path, op, reason: binary ? 'binary' : 'large', old: facts(old), new: facts(neu) };
  }
  return { kind: 'text', path, op, lines: diffLines(old?.toString('utf8') ?? '', neu?.toString('utf8') ?? '') };
}

/** The content of a version's file, or null when it has none at that path. */
export async function versionFileContent(db: Db, versionId: string, path: string): Promise<Buffer | null> {
  const file = await db.environmentFile.findUnique({ where: { versionId_path: { versionId, path } }, select: { blob: { select: { content: true } } } });
  return file ? Buffer.from(file.blob.content) : null;
}

export async function residualFileDiff(db: Db, parentVersionId: string, change: StoredFileChange): Promise<FileDiffView> {
  return fileDiffView(change.path, change.op, await versionFileContent(db, parentVersionId, change.path), newContent(change));
}
