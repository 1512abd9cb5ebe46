// Short ids in URLs: the pages show version and generation ids shortened (shortHash), and people
// paste them back. A unique prefix resolves to the full id; a prefix several ids share is
// answered with the candidates, so the person can pick one.
import type { Db } from '../db/index.ts';

export const MIN_PREFIX = 4;
const MAX_CANDIDATES = 10;
const PREFIX = /^[0-9a-z]+$/;

export type PrefixMatch = { kind: 'unique'; id: string } | { kind: 'ambiguous'; ids: string[] } | { kind: 'none' };

export async function resolveIdPrefix(db: Db, table: 'version' | 'generation', raw: string): Promise<PrefixMatch> {
  const prefix = raw.trim().toLowerCase();
  if (prefix.length < MIN_PREFIX || !PREFIX.test(prefix)) return { kind: 'none' };
  const where = { id: { startsWith: prefix } };
  const select = { id: true };
  const take = MAX_CANDIDATES + 1;
  const rows =
    table === 'version'
      ? await db.environmentVersion.findMany({ where, select, take, orderBy: { id: 'asc' } })
      : await db.generation.findMany({ where, select, take, orderBy: { id: 'asc' } });
  if (rows.length === 0) return { kind: 'none' };
  if (rows.length === 1) return { kind: 'unique', id: rows[0]!.id };
  return { kind: 'ambiguous', ids: rows.slice(0, MAX_CANDIDATES).map((r) => r.id) };
}
