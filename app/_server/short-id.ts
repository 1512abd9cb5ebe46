// For pages addressed by a version or generation id: when the id in the URL is not a full one,
// a unique prefix redirects to the full URL, a shared one to the list of candidates; anything
// else is the 404 page.
import type { Route } from 'next';
import { notFound, redirect } from 'next/navigation';
import { resolveIdPrefix } from '@/lib/dashboard/index.ts';
import { requestDb } from './db.ts';

export const PAGE_OF: Record<'version' | 'generation', (id: string) => string> = {
  version: (id) => `/environments/${id}`,
  generation: (id) => `/generations/${id}`,
};

export async function resolveShortIdOrNotFound(table: 'version' | 'generation', raw: string): Promise<never> {
  const match = await resolveIdPrefix(await requestDb(), table, decodeURIComponent(raw));
  if (match.kind === 'unique') redirect(PAGE_OF[table](match.id) as Route);
  if (match.kind === 'ambiguous') redirect(`/find?kind=${table}&prefix=${encodeURIComponent(raw)}` as Route);
  notFound();
}
