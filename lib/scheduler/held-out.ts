// Held-out sets: versions, or whole lineages, that are never served for training, so the
// environments double as an evaluation set.
import type { Db } from '../db/index.ts';
import { UNSERVED_STATES } from '../states/index.ts';

const SET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkSetName(name: string): string {
  if (!SET_NAME.test(name)) throw new Error(`held-out set name ${JSON.stringify(name)} must be 1–64 letters, digits, dots, dashes or underscores`);
  return name;
}

export interface HoldOutRequest {
  set: string;
  versionIds?: string[];
  lineageIds?: string[];
}

export async function holdOut(db: Db, req: HoldOutRequest): Promise<{ versions: number; lineages: number }> {
  const set = checkSetName(req.set);
  const versionIds = req.versionIds ?? [];
  const lineageIds = req.lineageIds ?? [];
  const [foundVersions, foundLineages] = await Promise.all([
    db.environmentVersion.count({ where: { id: { in: versionIds } } }),
    db.lineage.count({ where: { id: { in: lineageIds } } }),
  ]);
  if (foundVersions !== new Set(versionIds).size) throw new Error('some of the given environment versions do not exist');
  if (foundLineages !== new Set(lineageIds).size) throw new Error('some of the given lineages do not exist');
  const [versions, lineages] = await db.$transaction([
    db.environmentVersion.updateMany({ where: { id: { in: versionIds } }, data: { heldOutSet: set } }),
    db.lineage.updateMany({ where: { id: { in: lineageIds } }, data: { heldOutSet: set } }),
  ]);
  return { versions: versions.count, lineages: lineages.count };
}

export async function releaseHeldOut(db: Db, set: string): Promise<{ versions: number; lineages: number }> {
  const [versions, lineages] = await db.$transaction([
    db.environmentVersion.updateMany({ where: { heldOutSet: set }, data: { heldOutSet: null } }),
    db.lineage.updateMany({ where: { heldOutSet: set }, data: { heldOutSet: null } }),
  ]);
  return { versions: versions.count, lineages: lineages.count };
}

export interface HeldOutSetSummary {
  set: string;
  versions: number;
  lineages: number;
}

export async function listHeldOutSets(db: Db): Promise<HeldOutSetSummary[]> {
  const [versions, lineages] = await Promise.all([
    db.environmentVersion.groupBy({ by: ['heldOutSet'], where: { heldOutSet: { not: null } }, _count: { _all: true } }),
    db.lineage.groupBy({ by: ['heldOutSet'], where: { heldOutSet: { not: null } }, _count: { _all: true } }),
  ]);
  const sets = new Map<string, HeldOutSetSummary>();
  const entry = (set: string) => sets.get(set) ?? sets.set(set, { set, versions: 0, lineages: 0 }).get(set)!;
  for (const v of versions) entry(v.heldOutSet as string).versions = v._count._all;
  for (const l of lineages) entry(l.heldOutSet as string).lineages = l._count._all;
  return [...sets.values()].sort((a, b) => a.set.localeCompare(b.set));
}

// Every version of a set: the versions marked with it, and for each lineage marked with it
// its seed and every generation that settled on a version and was not rejected.
export async function versionsOfSet(db: Db, set: string): Promise<string[]> {
  const [versions, lineages] = await Promise.all([
    db.environmentVersion.findMany({ where: { heldOutSet: set }, select: { id: true } }),
    db.lineage.findMany({
      where: { heldOutSet: set },
      select: {
        seedVersionId: true,
        generations: { where: { versionId: { not: null }, state: { notIn: [...UNSERVED_STATES] } }, select: { versionId: true } },
      },
    }),
  ]);
  const ids = versions.map((v) => v.id);
  for (const l of lineages) ids.push(l.seedVersionId, ...l.generations.map((g) => g.versionId as string));
  return [...new Set(ids)];
}
