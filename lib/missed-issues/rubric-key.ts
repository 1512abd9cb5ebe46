// Rubric keys for items made from missed issues: a slug of the title, unique across every
// item ever stored (a key names one item's versions, so a new item never reuses one).
import type { Prisma } from '../db/generated/client.ts';

const MAX_SLUG = 60;

export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return slug || 'missed-issue';
}

export async function keyTaken(db: Prisma.TransactionClient, key: string): Promise<boolean> {
  return (await db.rubricItem.count({ where: { key } })) > 0;
}

export async function uniqueRubricKey(db: Prisma.TransactionClient, title: string): Promise<string> {
  const base = slugify(title);
  const taken = new Set((await db.rubricItem.findMany({ where: { key: { startsWith: base } }, select: { key: true }, distinct: ['key'] })).map((r) => r.key));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
