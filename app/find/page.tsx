import type { Metadata } from 'next';
import Link from 'next/link';
import type { Route } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { PAGE_OF } from '@/app/_server/short-id.ts';
import { resolveIdPrefix } from '@/lib/dashboard/index.ts';

export const metadata: Metadata = { title: 'Which one?' };

type Props = { searchParams: Promise<{ kind?: string; prefix?: string }> };

// A short id that several versions or generations share: list them to pick from.
export default async function FindPage({ searchParams }: Props) {
  await requirePermission('dashboard.read');
  const { kind, prefix = '' } = await searchParams;
  const table = kind === 'generation' ? 'generation' : 'version';
  const match = await resolveIdPrefix(await requestDb(), table, prefix);
  const ids = match.kind === 'ambiguous' ? match.ids : match.kind === 'unique' ? [match.id] : [];
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-3 py-10">
      <h1 className="text-lg font-semibold tracking-tight">
        {ids.length > 1
          ? `“${prefix}” is the start of ${ids.length >= 10 ? '10 or more' : ids.length} ${table} ids`
          : ids.length === 1
            ? `One ${table} starts with “${prefix}”`
            : `No ${table} id starts with “${prefix}”`}
      </h1>
      {ids.length > 1 && <p className="text-sm text-zinc-600">Add characters to the id to make it unique, or pick one:</p>}
      <ul className="flex flex-col gap-1 font-mono text-sm" data-testid="id-candidates">
        {ids.map((id) => (
          <li key={id}>
            <Link href={PAGE_OF[table](id) as Route} className="text-blue-700 hover:underline">
              {id}
            </Link>
          </li>
        ))}
      </ul>
      <Link href="/" className="text-sm underline underline-offset-4">
        Home
      </Link>
    </div>
  );
}
