// A generation's attempts compared: modify-loop retries and a reviewer's revisions each store a
// residual over the same parent, so two attempts' candidates differ exactly where their residuals
// give a file different content (a path one residual leaves alone is the parent's file). Also the
// files of the shown residual a reviewer saw with other content, and which attempt still holds
// what they saw, so the page can show the change since their last review.
import type { Db } from '../db/index.ts';
import type { StoredFileChange } from '../env/index.ts';
import {
  changeFacts,
  fileDiffView,
  fileSummary,
  inReadingOrder,
  newContent,
  parseStoredResidual,
  versionFileContent,
  versionFileFacts,
  viewedContentSha256,
  type FileFacts,
} from './generation-residual.ts';
import type { AttemptComparison, ChangedSinceReview, FileDiffView, ResidualFileSummary } from './generation-types.ts';

type ResidualByPath = ReadonlyMap<string, StoredFileChange>;

function byPath(changes: StoredFileChange[]): ResidualByPath {
  return new Map(changes.map((c) => [c.path, c]));
}

function candidateFacts(residual: ResidualByPath, parent: ReadonlyMap<string, FileFacts>, path: string): FileFacts | null {
  const change = residual.get(path);
  return change ? changeFacts(change) : (parent.get(path) ?? null);
}

/** The files that differ between two candidates of one parent, each given as its residual over it; `parent` holds the parent's files at the residuals' paths. */
export function compareResiduals(older: StoredFileChange[], newer: StoredFileChange[], parent: ReadonlyMap<string, FileFacts>): ResidualFileSummary[] {
  const before = byPath(older);
  const after = byPath(newer);
  const files = [...new Set([...before.keys(), ...after.keys()])].map((path) =>
    fileSummary(path, candidateFacts(before, parent, path), candidateFacts(after, parent, path)),
  );
  return inReadingOrder(files.filter((f) => f !== null));
}

// The stored residuals of the asked attempts, or null when the generation or any of them is
// unknown or recorded none (it stopped before its modifier wrote a candidate).
async function attemptResiduals(db: Db, generationId: string, numbers: number[]) {
  const generation = await db.generation.findUnique({
    where: { id: generationId },
    select: { parentVersionId: true, attempts: { where: { number: { in: numbers } }, select: { number: true, residual: true } } },
  });
  if (!generation) return null;
  const residuals = new Map(generation.attempts.filter((a) => a.residual !== null).map((a) => [a.number, parseStoredResidual(a.residual)]));
  const asked = numbers.map((n) => residuals.get(n));
  if (asked.some((r) => r === undefined)) return null;
  return { parentVersionId: generation.parentVersionId, residuals: asked as StoredFileChange[][] };
}

/** The files that differ from attempt `from`'s candidate to attempt `to`'s, or null when either is unknown or has no residual. */
export async function compareAttempts(db: Db, generationId: string, from: number, to: number): Promise<AttemptComparison | null> {
  const loaded = await attemptResiduals(db, generationId, [from, to]);
  if (!loaded) return null;
  const [older, newer] = loaded.residuals as [StoredFileChange[], StoredFileChange[]];
  const parent = await versionFileFacts(db, loaded.parentVersionId, [...new Set([...older, ...newer].map((c) => c.path))]);
  return { from, to, files: compareResiduals(older, newer, parent) };
}

/** One file's line diff from attempt `from`'s candidate to attempt `to`'s, or null when the attempts are unknown or neither has the file. */
export async function attemptFileDiff(db: Db, generationId: string, from: number, to: number, path: string): Promise<FileDiffView | null> {
  const loaded = await attemptResiduals(db, generationId, [from, to]);
  if (!loaded) return null;
  const [before, after] = loaded.residuals.map((r) => byPath(r).get(path));
  // Left alone by both residuals, the file is the parent's in both candidates: nothing to show.
  if (!before && !after) return null;
  const parentContent = before && after ? null : await versionFileContent(db, loaded.parentVersionId, path);
  const old = before ? newContent(before) : parentContent;
  const neu = after ? newContent(after) : parentContent;
  if (!old && !neu) return null;
  return fileDiffView(path, !old ? 'add' : !neu ? 'delete' : 'modify', old, neu);
}

export interface AttemptContentHashes {
  number: number;
  /** The viewed-mark content hash of every file its residual changed, by path. */
  hashes: ReadonlyMap<string, string>;
}

/**
 * The files of the shown residual (attempt `shownAttempt`) the viewer saw with other content. A
 * file's viewed mark says what they saw of it; a file they never marked was seen as the attempt
 * shown when they last decided (`decidedAttempt`), if that was an earlier one. The attempt that
 * still holds what they saw is the newest whose residual gave the file that content. Pure.
 */
export function changedSinceReview(input: {
  shown: ResidualFileSummary[];
  shownAttempt: number;
  marks: { path: string; contentSha256: string }[];
  attempts: AttemptContentHashes[];
  decidedAttempt: number | null;
}): ChangedSinceReview[] {
  // Marks from before content hashes were kept say nothing of what was seen.
  const marks = new Map(input.marks.filter((m) => m.contentSha256 !== '').map((m) => [m.path, m.contentSha256]));
  const newestFirst = [...input.attempts].sort((a, b) => b.number - a.number);
  const decided = input.decidedAttempt !== null && input.decidedAttempt < input.shownAttempt ? input.decidedAttempt : null;
  const changed: ChangedSinceReview[] = [];
  for (const file of input.shown) {
    const seen = marks.get(file.path);
    if (seen !== undefined) {
      if (seen === file.contentSha256) continue;
      const holder = newestFirst.find((a) => a.number !== input.shownAttempt && a.hashes.get(file.path) === seen);
      changed.push({ path: file.path, since: 'viewed', seenAttempt: holder?.number ?? null });
    } else if (decided !== null) {
      const atDecision = input.attempts.find((a) => a.number === decided)?.hashes.get(file.path);
      if (atDecision !== file.contentSha256) changed.push({ path: file.path, since: 'decided', seenAttempt: decided });
    }
  }
  return changed;
}

/** What changed in the shown residual since the viewer last marked its files viewed or decided on the generation. */
export async function changesSinceLastReview(
  db: Db,
  viewerId: string,
  generation: { id: string; parentVersionId: string },
  shown: { number: number; files: ResidualFileSummary[] },
): Promise<ChangedSinceReview[]> {
  const [marks, decision] = await Promise.all([
    db.fileViewMark.findMany({ where: { userId: viewerId, generationId: generation.id }, select: { path: true, contentSha256: true } }),
    db.review.findFirst({ where: { generationId: generation.id, reviewerId: viewerId }, orderBy: { createdAt: 'desc' }, select: { createdAt: true } }),
  ]);
  const current = new Map(shown.files.map((f) => [f.path, f.contentSha256]));
  const stale = marks.some((m) => m.contentSha256 !== '' && current.has(m.path) && current.get(m.path) !== m.contentSha256);
  // Nothing seen differs from what is shown: no attempt's residual needs reading.
  if (!stale && !decision) return [];
  const attempts = await db.attempt.findMany({
    where: { generationId: generation.id, residual: { not: null } },
    select: { number: true, createdAt: true, residual: true },
    orderBy: { number: 'asc' },
  });
  const residuals = attempts.map((a) => ({ number: a.number, changes: parseStoredResidual(a.residual) }));
  const parent = await versionFileFacts(db, generation.parentVersionId, [...new Set(residuals.flatMap((r) => r.changes.map((c) => c.path)))]);
  const hashes = residuals.map(({ number, changes }) => ({
    number,
    hashes: new Map(changes.map((c) => [c.path, viewedContentSha256(parent.get(c.path)?.sha256 ?? null, changeFacts(c)?.sha256 ?? null)])),
  }));
  const decidedAttempt = decision ? (attempts.filter((a) => a.createdAt <= decision.createdAt).at(-1)?.number ?? null) : null;
  return changedSinceReview({ shown: shown.files, shownAttempt: shown.number, marks, attempts: hashes, decidedAttempt });
}
