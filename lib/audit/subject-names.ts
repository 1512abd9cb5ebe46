// Readable names of audit subjects, looked up for one page of entries at once: generations
// as "<lineage> generation <n>", versions and lineages by name, users by email.
import type { Db } from '../db/index.ts';

export async function subjectNames(db: Db, entries: readonly { subjectType: string; subjectId: string }[]): Promise<Map<string, string>> {
  const ids = (type: string) => [...new Set(entries.filter((e) => e.subjectType === type).map((e) => e.subjectId))];
  const [generations, versions, lineages, users, items] = await Promise.all([
    db.generation.findMany({ where: { id: { in: ids('generation') } }, select: { id: true, number: true, lineage: { select: { name: true } } } }),
    db.environmentVersion.findMany({ where: { id: { in: ids('environment-version') } }, select: { id: true, name: true } }),
    db.lineage.findMany({ where: { id: { in: ids('lineage') } }, select: { id: true, name: true } }),
    db.user.findMany({ where: { id: { in: ids('user') } }, select: { id: true, email: true } }),
    db.rubricItem.findMany({ where: { id: { in: ids('rubric-item') } }, select: { id: true, key: true, version: true } }),
  ]);
  return new Map([
    ...generations.map((g) => [`generation:${g.id}`, `${g.lineage.name} generation ${g.number}`] as const),
    ...versions.map((v) => [`environment-version:${v.id}`, `${v.name} (version ${v.id.slice(0, 12)})`] as const),
    ...lineages.map((l) => [`lineage:${l.id}`, `lineage ${l.name}`] as const),
    ...users.map((u) => [`user:${u.id}`, u.email] as const),
    ...items.map((i) => [`rubric-item:${i.id}`, `${i.key}@${i.version}`] as const),
  ]);
}
