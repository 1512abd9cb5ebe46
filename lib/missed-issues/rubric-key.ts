// Rubric keys for items made from missed issues: a slug of the title, unique across every
// item ever stored (a key names one item's versions, so a new item never reuses one).
import type { Prisma } from '../db/index.ts';

const MAX_SLUG = 60;

// A title longer than MAX_SLUG is cut at the last word that fits whole, so a key never ends
// in half a word ("…-from-own" for "…from-owner"); one word longer than the limit is cut hard.
export function slugify(title: string): string {
  const full = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return cutAtWord(full, MAX_SLUG) || 'missed-issue';
}

function cutAtWord(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  if (slug[max] === '-') return slug.slice(0, max);
  const lastBreak = slug.lastIndexOf('-', max);
  return lastBreak > 0 ? slug.slice(0, lastBreak) : slug.slice(0, max);
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
