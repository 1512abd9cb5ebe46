// Which verifier a calibration set measures. Versions are immutable, so "the environment's tests
// changed" means a newer version exists that is the same task (identical files outside tests/,
// same name) with different tests/ — a verifier fix. The current verifier of a version is the
// tests/ of the newest such version (the version itself when none is newer). A set records the
// hash of its versions' current verifiers at creation; when that hash moves, the set is stale and
// can be re-scored with the new tests on the same trajectories.
import { createHash } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { CalibrationNotFoundError } from './errors.ts';

const TESTS_PREFIX = 'tests/';

interface FileRow {
  versionId: string;
  path: string;
  blobHash: string;
  executable: boolean;
}

const fileLine = (f: FileRow) => `${f.path}\t${f.executable ? 'x' : '-'}\t${f.blobHash}`;

function sha256(lines: readonly string[]): string {
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** For each version, the id of the version whose tests/ are its current verifier. */
export async function currentVerifierSources(db: Db, versionIds: readonly string[]): Promise<Map<string, string>> {
  const versions = await db.environmentVersion.findMany({
    where: { id: { in: [...versionIds] } },
    select: { id: true, name: true },
  });
  const missing = versionIds.filter((id) => !versions.some((v) => v.id === id));
  if (missing.length > 0) throw new CalibrationNotFoundError(`unknown environment version(s): ${missing.join(', ')}`);
  // Only versions with one of these names can be the same task; their files decide.
  const candidates = await db.environmentVersion.findMany({
    where: { name: { in: [...new Set(versions.map((v) => v.name))] } },
    select: { id: true, name: true, createdAt: true, files: { select: { path: true, blobHash: true, executable: true } } },
  });
  const taskKey = (files: readonly Omit<FileRow, 'versionId'>[]) =>
    sha256(
      files
        .filter((f) => !f.path.startsWith(TESTS_PREFIX))
        .map((f) => fileLine({ ...f, versionId: '' }))
        .sort(),
    );
  const keyed = candidates.map((c) => ({ ...c, key: `${c.name}\n${taskKey(c.files)}` }));
  const sources = new Map<string, string>();
  for (const v of versions) {
    const own = keyed.find((c) => c.id === v.id)!;
    const newest = keyed.filter((c) => c.key === own.key).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? -1 : 1))[0]!;
    sources.set(v.id, newest.id);
  }
  return sources;
}

/** A hash over the current verifier (tests/ files by content) of each of these versions. */
export async function verifierVersionOf(db: Db, versionIds: readonly string[]): Promise<string> {
  const ids = [...new Set(versionIds)].sort();
  const sources = await currentVerifierSources(db, ids);
  const files = await db.environmentFile.findMany({
    where: { versionId: { in: [...new Set(sources.values())] }, path: { startsWith: TESTS_PREFIX } },
    select: { versionId: true, path: true, blobHash: true, executable: true },
  });
  const lines = ids.flatMap((id) =>
    files
      .filter((f) => f.versionId === sources.get(id))
      .map(fileLine)
      .sort()
      .map((line) => `${id}\t${line}`),
  );
  return sha256(lines);
}

/** The environment versions a set measures: those of its sampled trajectories. */
export async function setVersionIds(db: Db, setId: string): Promise<string[]> {
  const items = await db.calibrationItem.findMany({ where: { setId }, select: { rolloutId: true } });
  const rollouts = await db.rollout.findMany({ where: { id: { in: items.map((i) => i.rolloutId) } }, select: { versionId: true } });
  return [...new Set(rollouts.map((r) => r.versionId))].sort();
}

export interface VerifierStatus {
  recorded: string;
  current: string;
  stale: boolean;
}

export async function calibrationVerifierStatus(db: Db, setId: string): Promise<VerifierStatus> {
  const set = await db.calibrationSet.findUnique({ where: { id: setId }, select: { verifierVersion: true } });
  if (!set) throw new CalibrationNotFoundError(`no calibration set has the id ${setId}`);
  const current = await verifierVersionOf(db, await setVersionIds(db, setId));
  return { recorded: set.verifierVersion, current, stale: current !== set.verifierVersion };
}

/** True when the tests of the set's environments changed since the set was created. */
export async function isCalibrationStale(db: Db, setId: string): Promise<boolean> {
  return (await calibrationVerifierStatus(db, setId)).stale;
}
