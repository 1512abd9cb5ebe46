// Rubric items are versioned rows: (key, version) is unique, a changed item gets a new
// version and the old one is kept (verdicts point at it) but deactivated. The active
// rubric is the newest active version of each key, global or of one lineage.
import type { Db, Prisma, RubricItem } from '../db/index.ts';
import { BUILTIN_RUBRIC } from './builtin-items.ts';
import type { RubricItemDef } from './types.ts';

export interface RubricItemInput extends RubricItemDef {
  scope?: 'global' | 'lineage'; // default global
  lineageId?: string | null; // required for scope lineage
  source?: 'builtin' | 'missed-issue'; // default builtin
  active?: boolean; // of a new version; default true. An inactive new version leaves the older one in force.
}

export interface SaveResult {
  item: RubricItem; // the newest version of the key
  created: boolean; // false when the content was unchanged
}

export interface SyncResult {
  created: RubricItem[]; // new items and new versions of changed items
  unchanged: number;
  retired: RubricItem[]; // built-in keys no longer shipped, now inactive
}

function sameContent(row: RubricItem, input: RubricItemInput): boolean {
  return (
    row.title === input.title &&
    row.description === input.description &&
    row.check === input.check &&
    row.question === input.question &&
    row.builtinCheck === (input.builtinCheck ?? null) &&
    row.appliesTo === input.appliesTo &&
    row.scope === (input.scope ?? 'global') &&
    row.lineageId === (input.lineageId ?? null) &&
    row.source === (input.source ?? 'builtin')
  );
}

// Another process saving the same key at once makes (key, version) collide (P2002). Or, on SQLite in WAL
// mode, it commits between this transaction's read and its write: the write then fails at once with
// SQLITE_BUSY_SNAPSHOT, which no busy timeout waits out (Prisma reports P1008, "Operation has timed
// out"; a Playwright set-up failed so, an evolve and a validate process syncing the built-in rubric).
// Either way a fresh transaction sees the other's row and succeeds.
function isRaceWithAnotherWriter(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: string }).code : undefined;
  return code === 'P2002' || code === 'P1008';
}
const SAVE_ATTEMPTS = 3;

// Inside the caller's transaction: a missed issue's conversion saves its item with its audit rows.
export async function saveRubricItemIn(tx: Prisma.TransactionClient, input: RubricItemInput): Promise<SaveResult> {
  if (input.scope === 'lineage' && !input.lineageId) throw new Error(`rubric item ${input.key}: a lineage item needs a lineageId`);
  const latest = await tx.rubricItem.findFirst({ where: { key: input.key }, orderBy: { version: 'desc' } });
  if (latest && sameContent(latest, input)) return { item: latest, created: false };
  const active = input.active ?? true;
  if (active) await tx.rubricItem.updateMany({ where: { key: input.key, active: true }, data: { active: false } });
  const item = await tx.rubricItem.create({
    data: {
      key: input.key,
      version: (latest?.version ?? 0) + 1,
      title: input.title,
      description: input.description,
      check: input.check,
      question: input.question,
      builtinCheck: input.builtinCheck ?? null,
      appliesTo: input.appliesTo,
      scope: input.scope ?? 'global',
      lineageId: input.lineageId ?? null,
      source: input.source ?? 'builtin',
      active,
    },
  });
  return { item, created: true };
}

function saveOnce(db: Db, input: RubricItemInput): Promise<SaveResult> {
  return db.$transaction((tx) => saveRubricItemIn(tx, input));
}

// Stores an item: unchanged content → nothing new; changed content → a new version.
export async function saveRubricItem(db: Db, input: RubricItemInput): Promise<SaveResult> {
  if (input.scope === 'lineage' && !input.lineageId) throw new Error(`rubric item ${input.key}: a lineage item needs a lineageId`);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await saveOnce(db, input);
    } catch (err) {
      if (attempt >= SAVE_ATTEMPTS || !isRaceWithAnotherWriter(err)) throw err;
    }
  }
}

// Makes one version the key's version in force (or takes it out of force).
// Inside the caller's transaction, so the change and its audit rows commit together.
export async function setRubricItemActive(tx: Prisma.TransactionClient, id: string, active: boolean): Promise<RubricItem> {
  const item = await tx.rubricItem.findUniqueOrThrow({ where: { id } });
  if (active) await tx.rubricItem.updateMany({ where: { key: item.key, active: true, NOT: { id } }, data: { active: false } });
  return tx.rubricItem.update({ where: { id }, data: { active } });
}

export async function syncBuiltinRubric(db: Db, builtins: RubricItemDef[] = BUILTIN_RUBRIC): Promise<SyncResult> {
  const result: SyncResult = { created: [], unchanged: 0, retired: [] };
  for (const def of builtins) {
    const saved = await saveRubricItem(db, { ...def, source: 'builtin' });
    if (saved.created) result.created.push(saved.item);
    else result.unchanged++;
  }
  const shipped = builtins.map((d) => d.key);
  const stale = await db.rubricItem.findMany({ where: { source: 'builtin', active: true, key: { notIn: shipped } } });
  for (const row of stale) result.retired.push(await db.rubricItem.update({ where: { id: row.id }, data: { active: false } }));
  return result;
}

export interface ActiveRubricQuery {
  lineageId?: string | null; // adds that lineage's own items to the global ones
  appliesTo: 'plan' | 'environment'; // items for both are included either way
}

export async function activeRubric(db: Db, query: ActiveRubricQuery): Promise<RubricItem[]> {
  const scopes = query.lineageId ? [{ scope: 'global' }, { scope: 'lineage', lineageId: query.lineageId }] : [{ scope: 'global' }];
  const rows = await db.rubricItem.findMany({
    where: { active: true, appliesTo: { in: [query.appliesTo, 'both'] }, OR: scopes },
    orderBy: [{ key: 'asc' }, { version: 'desc' }],
  });
  // Normally one active version per key; should two ever be, the newest wins.
  const newest = new Map<string, RubricItem>();
  for (const row of rows) if (!newest.has(row.key)) newest.set(row.key, row);
  return [...newest.values()];
}
