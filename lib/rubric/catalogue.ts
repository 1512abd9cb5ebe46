// Leads' control of rubric items: switching a version in or out of force (audited), and the
// catalogue the /rubric page and `envolve rubric list` show — every key with all its versions.
import { z } from 'zod';
import type { Db, Prisma, RubricItem } from '../db/index.ts';
import { setRubricItemActive } from './store.ts';
import { assertCan, type Actor } from '../auth/index.ts';
import { audit } from '../missed-issues/index.ts';
import { NotFoundError } from '../errors/index.ts';

export class RubricItemNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`rubric item ${id} not found`);
  }
}

export const setItemActiveSchema = z.object({ active: z.boolean() });

export async function setItemActive(db: Db, actor: Actor, itemId: string, active: boolean): Promise<RubricItem> {
  assertCan(actor, 'rubric.manage');
  return db.$transaction((tx) => setItemActiveIn(tx, actor, itemId, active));
}

// The change and its audit rows in the caller's transaction.
export async function setItemActiveIn(tx: Prisma.TransactionClient, actor: Actor, itemId: string, active: boolean): Promise<RubricItem> {
  const before = await tx.rubricItem.findUnique({ where: { id: itemId } });
  if (!before) throw new RubricItemNotFoundError(itemId);
  // Activating one version retires the key's version in force: that one's change is audited too.
  const displaced = active ? await tx.rubricItem.findMany({ where: { key: before.key, active: true, NOT: { id: itemId } } }) : [];
  const after = await setRubricItemActive(tx, itemId, active);
  await audit(tx, actor, active ? 'rubric.activate' : 'rubric.deactivate', { type: 'rubric-item', id: itemId }, before, after);
  for (const old of displaced) {
    await audit(tx, actor, 'rubric.deactivate', { type: 'rubric-item', id: old.id }, old, { ...old, active: false, replacedBy: itemId });
  }
  return after;
}

export interface RubricKeyView {
  key: string;
  source: string;
  inForce: RubricItem | null; // the active version, if any
  versions: RubricItem[]; // newest first
  verdictCount: number; // verdicts any version of the key has given
  lineageName: string | null;
}

export async function listRubricCatalogue(db: Db): Promise<RubricKeyView[]> {
  const items = await db.rubricItem.findMany({ orderBy: [{ key: 'asc' }, { version: 'desc' }] });
  const counts = new Map((await db.rubricVerdict.groupBy({ by: ['itemId'], _count: { _all: true } })).map((c) => [c.itemId, c._count._all]));
  const lineageIds = [...new Set(items.flatMap((i) => (i.lineageId ? [i.lineageId] : [])))];
  const lineages = new Map((await db.lineage.findMany({ where: { id: { in: lineageIds } }, select: { id: true, name: true } })).map((l) => [l.id, l.name]));
  const byKey = new Map<string, RubricItem[]>();
  for (const item of items) byKey.set(item.key, [...(byKey.get(item.key) ?? []), item]);
  return (
    [...byKey.entries()]
      .map(([key, versions]) => {
        const newest = versions[0]!;
        return {
          key,
          source: newest.source,
          inForce: versions.find((v) => v.active) ?? null,
          versions,
          verdictCount: versions.reduce((sum, v) => sum + (counts.get(v.id) ?? 0), 0),
          lineageName: newest.lineageId ? (lineages.get(newest.lineageId) ?? null) : null,
        };
      })
      // Items made from missed issues first: they are what leads come here to manage.
      .sort((a, b) => Number(b.source === 'missed-issue') - Number(a.source === 'missed-issue') || a.key.localeCompare(b.key))
  );
}

export interface ItemVerdictRow {
  id: string;
  verdict: string;
  method: string;
  detail: string;
  createdAt: Date;
  versionId: string;
  rubricVersion: string | null;
  validatorRunId: string;
  generation: { id: string; number: number; lineageName: string } | null;
}

// Which versions of the environment this item (at this version) judged, newest first.
export async function itemVerdicts(db: Db, itemId: string, take = 100): Promise<ItemVerdictRow[]> {
  const verdicts = await db.rubricVerdict.findMany({
    where: { itemId },
    orderBy: { createdAt: 'desc' },
    take,
    include: {
      validatorRun: {
        select: {
          versionId: true,
          rubricVersion: true,
          attempt: { select: { generation: { select: { id: true, number: true, lineage: { select: { name: true } } } } } },
        },
      },
    },
  });
  return verdicts.map((v) => {
    const generation = v.validatorRun.attempt?.generation;
    return {
      id: v.id,
      verdict: v.verdict,
      method: v.method,
      detail: v.detail,
      createdAt: v.createdAt,
      versionId: v.validatorRun.versionId,
      rubricVersion: v.validatorRun.rubricVersion,
      validatorRunId: v.validatorRunId,
      generation: generation ? { id: generation.id, number: generation.number, lineageName: generation.lineage.name } : null,
    };
  });
}
