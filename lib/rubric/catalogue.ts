// Leads' control of rubric items: switching a version in or out of force (audited), and the
// catalogue the /rubric page and `envolve rubric list` show — every key with all its versions.
import { z } from 'zod';
import type { Db, Prisma, RubricItem } from '../db/index.ts';
import { setRubricItemActive } from './store.ts';
import { assertCan, type Actor } from '../auth/index.ts';
import { auditDecision } from '../audit/index.ts';
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
  await auditDecision(tx, actor, active ? 'rubric.activate' : 'rubric.deactivate', { type: 'rubric-item', id: itemId }, before, after);
  for (const old of displaced) {
    await auditDecision(tx, actor, 'rubric.deactivate', { type: 'rubric-item', id: old.id }, old, { ...old, active: false, replacedBy: itemId });
  }
  return after;
}

export interface RubricKeyView {
  key: string;
  source: string;
  inForce: RubricItem | null; // the active version, if any
  versions: RubricItem[]; // newest first
  // Verdicts any version of the key has given: an environment item's in rubric validator runs, a plan
  // item's in plan reviews (as the generation pages show them); judged = passed or failed.
  verdictCount: number;
  judgedCount: number;
  lineageName: string | null;
}

interface VerdictTally {
  total: number;
  judged: number;
}

const isJudged = (verdict: string) => verdict === 'passed' || verdict === 'failed';

function tally(into: Map<string, VerdictTally>, itemId: string, verdict: string, count = 1): void {
  const t = into.get(itemId) ?? { total: 0, judged: 0 };
  t.total += count;
  if (isJudged(verdict)) t.judged += count;
  into.set(itemId, t);
}

// Plan items judge plans, not environments: their verdicts are the items of each plan round's
// stored review (one per item and round), never RubricVerdict rows.
async function planReviewTallies(db: Db, into: Map<string, VerdictTally>): Promise<void> {
  const rounds = await db.planRound.findMany({ where: { review: { contains: '"itemId"' } }, select: { review: true } });
  for (const { review } of rounds) {
    let items: unknown;
    try {
      items = (JSON.parse(review) as { items?: unknown }).items;
    } catch {
      continue;
    }
    if (!Array.isArray(items)) continue;
    for (const item of items as { itemId?: unknown; verdict?: unknown }[]) {
      if (typeof item.itemId === 'string' && typeof item.verdict === 'string') tally(into, item.itemId, item.verdict);
    }
  }
}

async function verdictTallies(db: Db): Promise<Map<string, VerdictTally>> {
  const tallies = new Map<string, VerdictTally>();
  const groups = await db.rubricVerdict.groupBy({ by: ['itemId', 'verdict'], _count: { _all: true } });
  for (const g of groups) tally(tallies, g.itemId, g.verdict, g._count._all);
  await planReviewTallies(db, tallies);
  return tallies;
}

export async function listRubricCatalogue(db: Db): Promise<RubricKeyView[]> {
  const items = await db.rubricItem.findMany({ orderBy: [{ key: 'asc' }, { version: 'desc' }] });
  const counts = await verdictTallies(db);
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
          verdictCount: versions.reduce((sum, v) => sum + (counts.get(v.id)?.total ?? 0), 0),
          judgedCount: versions.reduce((sum, v) => sum + (counts.get(v.id)?.judged ?? 0), 0),
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
  versionId: string; // the version judged; for a plan review, the parent the plan was made from
  rubricVersion: string | null;
  validatorRunId: string | null; // null for a plan item's verdict, which a plan review gave
  generation: { id: string; number: number; lineageName: string } | null;
}

// A plan item's verdicts: its entry in each plan round's stored review, as the generation page shows it.
async function planReviewVerdicts(db: Db, itemId: string, take: number): Promise<ItemVerdictRow[]> {
  const rounds = await db.planRound.findMany({
    where: { review: { contains: `"itemId":${JSON.stringify(itemId)}` } },
    orderBy: { createdAt: 'desc' },
    take,
    include: { generation: { select: { id: true, number: true, parentVersionId: true, lineage: { select: { name: true } } } } },
  });
  return rounds.flatMap((round) => {
    let items: unknown;
    try {
      items = (JSON.parse(round.review) as { items?: unknown }).items;
    } catch {
      return [];
    }
    const entry = Array.isArray(items) ? (items as { itemId?: unknown; verdict?: unknown; reason?: unknown }[]).find((i) => i.itemId === itemId) : undefined;
    if (!entry || typeof entry.verdict !== 'string') return [];
    const g = round.generation;
    return [
      {
        id: `${round.id}:${itemId}`,
        verdict: entry.verdict,
        method: `plan review, round ${round.round}`,
        detail: typeof entry.reason === 'string' ? entry.reason : '',
        createdAt: round.createdAt,
        versionId: g.parentVersionId,
        rubricVersion: round.rubricVersion,
        validatorRunId: null,
        generation: { id: g.id, number: g.number, lineageName: g.lineage.name },
      },
    ];
  });
}

// Which versions of the environment (or, for a plan item, which plans) this item at this version
// judged, newest first.
export async function itemVerdicts(db: Db, itemId: string, take = 100): Promise<ItemVerdictRow[]> {
  const plans = await planReviewVerdicts(db, itemId, take);
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
  const fromRuns = verdicts.map((v): ItemVerdictRow => {
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
  return [...fromRuns, ...plans].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, take);
}
