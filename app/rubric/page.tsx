import type { Metadata } from 'next';
import Link from 'next/link';
import type { Route } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { Badge } from '@/app/missed-issues/labels.tsx';
import { can } from '@/lib/auth/index.ts';
import { listRubricCatalogue, rubricVersionLabel, type RubricKeyView } from '@/lib/rubric/index.ts';
import { DataTable, type Column } from '@/app/_components/data-table.tsx';
import { ActiveToggle } from './_components/active-toggle.tsx';

export const metadata: Metadata = { title: 'Rubric' };

const shownOf = (k: RubricKeyView) => k.inForce ?? k.versions[0]!;

// In the catalogue's order (items made from missed issues first, then by key) until a header sorts them.
const COLUMNS: Column<RubricKeyView>[] = [
  {
    header: 'Item',
    sort: { key: 'key', value: (k) => k.key },
    cell: (k) => (
      <>
        <Link href={`/rubric/${shownOf(k).id}` as Route} className="font-medium hover:underline">
          {shownOf(k).title}
        </Link>
        <div className="font-mono text-xs text-zinc-500">{k.key}</div>
      </>
    ),
  },
  {
    header: 'In force',
    sort: { key: 'in-force', value: (k) => k.inForce?.version ?? null, firstDir: 'desc' },
    className: 'whitespace-nowrap',
    cell: (k) => (k.inForce ? <Badge value={`active v${k.inForce.version}`} /> : <Badge value="inactive" />),
  },
  {
    header: 'Versions',
    sort: { key: 'versions', value: (k) => k.versions.length, firstDir: 'desc' },
    className: 'font-mono text-xs text-zinc-600',
    cell: (k) => k.versions.map((v) => `v${v.version}`).join(' '),
  },
  { header: 'Source', sort: { key: 'source', value: (k) => k.source }, className: 'text-zinc-600', cell: (k) => k.source },
  {
    header: 'Scope',
    sort: { key: 'scope', value: (k) => (shownOf(k).scope === 'lineage' ? `lineage: ${k.lineageName ?? shownOf(k).lineageId}` : 'global') },
    className: 'text-zinc-600',
    cell: (k) => (shownOf(k).scope === 'lineage' ? `lineage: ${k.lineageName ?? shownOf(k).lineageId}` : 'global'),
  },
  { header: 'Judges', sort: { key: 'judges', value: (k) => shownOf(k).appliesTo }, className: 'text-zinc-600', cell: (k) => shownOf(k).appliesTo },
  {
    header: 'Method',
    className: 'text-zinc-600',
    cell: (k) => [shownOf(k).check ? 'check' : '', shownOf(k).builtinCheck ? 'built-in' : '', shownOf(k).question ? 'LLM' : ''].filter(Boolean).join(' + '),
  },
  {
    header: 'Verdicts',
    sort: { key: 'verdicts', value: (k) => k.verdictCount, firstDir: 'desc' },
    className: 'text-right tabular-nums text-zinc-600',
    cell: (k) => (k.verdictCount === 0 ? 0 : `${k.verdictCount} (${k.judgedCount} judged)`),
  },
];

// Only for those who may manage the rubric: (de)activate the newest version.
const actionsColumn: Column<RubricKeyView> = {
  header: <span className="sr-only">Actions</span>,
  className: 'text-right',
  cell: (k) => {
    const newest = k.versions[0]!;
    return <ActiveToggle itemId={newest.id} active={newest.active} label={`${k.key}@${newest.version}`} scope={newest.scope} />;
  },
};

export default async function RubricPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePermission('dashboard.read');
  const mayManage = can(user.role, 'rubric.manage');
  const keys = await listRubricCatalogue(await requestDb());
  const inForce = keys.flatMap((k) => (k.inForce?.scope === 'global' ? [k.inForce] : []));

  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Rubric</h1>
        <p className="text-sm text-zinc-500">
          Every item the plan reviewer and the rubric validator judge with, at every version. An active item judges every generation evolved after it was
          activated. Global items in force now: <span className="font-mono">{rubricVersionLabel(inForce)}</span> ({inForce.length} items).
        </p>
      </div>
      <DataTable
        label="Rubric items"
        columns={mayManage ? [...COLUMNS, actionsColumn] : COLUMNS}
        rows={keys}
        rowKey={(k) => k.key}
        rowProps={() => ({ className: 'align-top hover:bg-zinc-50' })}
        url={{ path: '/rubric', params: await searchParams }}
        noun="items"
      />
    </div>
  );
}
