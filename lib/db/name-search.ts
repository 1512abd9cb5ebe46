// Substring search on a name, with the searched text taken literally. Prisma's `contains` hands
// the text to LIKE unescaped, so "%" and "_" matched anything; this escapes them (and the escape
// character) and says ESCAPE, which SQLite and PostgreSQL both honour. The query schemas refuse
// control characters in search text (lib/text/control-characters.ts).
import type { Db } from './client.ts';
import { Prisma } from './generated/client.ts';

export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const TABLES = { environmentVersion: 'EnvironmentVersion', lineage: 'Lineage' } as const;

/** The ids of the rows whose name contains the text, literally. */
export async function idsWithNameContaining(db: Db, table: keyof typeof TABLES, text: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT "id" FROM ${Prisma.raw(`"${TABLES[table]}"`)} WHERE "name" LIKE ${likeContains(text)} ESCAPE '\\'`,
  );
  return rows.map((r) => r.id);
}
