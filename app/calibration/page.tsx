import type { Metadata } from 'next';
import Link from 'next/link';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { can, PERMISSIONS } from '@/lib/auth/index.ts';
import { listCalibrationSets, listSetsForAnnotator, type SetSummary, describeScope } from '@/lib/calibration/index.ts';
import { DataTable, type Column } from '@/app/_components/data-table.tsx';
import { NewSetForm } from './new-set-form.tsx';

export const metadata: Metadata = { title: 'Calibration' };

const SET_COLUMNS: Column<SetSummary>[] = [
  {
    header: 'Set',
    sort: { key: 'name', value: (set) => set.name },
    cell: (set) => (
      <Link href={`/calibration/${set.id}`} className="font-medium underline">
        {set.name}
      </Link>
    ),
  },
  { header: 'Scope', sort: { key: 'scope', value: (set) => describeScope(set.scope) }, className: 'text-zinc-600', cell: (set) => describeScope(set.scope) },
  {
    header: 'Strata (pass/fail)',
    sort: { key: 'size', value: (set) => set.strata.pass + set.strata.fail, firstDir: 'desc' },
    className: 'tabular-nums',
    cell: (set) => (
      <>
        {set.strata.pass}/{set.strata.fail} <span className="text-zinc-400">({Math.round(set.passShare * 100)}% pass)</span>
      </>
    ),
  },
  {
    header: 'Labels',
    sort: { key: 'labels', value: (set) => (set.labelsNeeded === 0 ? null : set.labels / set.labelsNeeded), firstDir: 'desc' },
    className: 'tabular-nums',
    cell: (set) => `${set.labels}/${set.labelsNeeded}`,
  },
  { header: 'State', sort: { key: 'state', value: (set) => set.state }, cell: (set) => set.state },
  {
    header: 'Created',
    sort: { key: 'created', value: (set) => set.createdAt, firstDir: 'desc' },
    className: 'text-zinc-500',
    cell: (set) => set.createdAt.toISOString().slice(0, 10),
  },
];

export default async function CalibrationPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePermission('calibration.label');
  const db = await requestDb();
  const mine = await listSetsForAnnotator(db, user.id);
  const lead = can(user.role, 'calibration.manage');
  const [sets, lineages, annotators] = lead
    ? await Promise.all([
        listCalibrationSets(db),
        db.lineage.findMany({ orderBy: { createdAt: 'desc' }, select: { id: true, name: true } }),
        db.user.findMany({
          where: { role: { in: [...PERMISSIONS['calibration.label']] } },
          orderBy: { email: 'asc' },
          select: { email: true, name: true, role: true },
        }),
      ])
    : [[], [], []];

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Calibration</h1>
        <p className="text-sm text-zinc-500">
          Blind human labels on sampled trajectories: how often the verifier agrees with people, and how often it passes bad work.
        </p>
      </div>

      <section aria-labelledby="my-sets" className="flex flex-col gap-2">
        <h2 id="my-sets" className="text-sm font-semibold">
          Your labelling
        </h2>
        {mine.length === 0 ? (
          <p className="text-sm text-zinc-500">You are not an annotator of any set.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {mine.map((s) => (
              <li key={s.id} data-testid="my-set" className="flex items-center gap-4 rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm">
                <span className="font-medium">{s.name}</span>
                <span className="text-zinc-500">
                  {s.myLabels} labelled · {s.items} items
                </span>
                <Link href={`/calibration/${s.id}/label`} className="ml-auto font-medium text-zinc-900 underline">
                  {s.myLabels === 0 ? 'Start labelling' : 'Continue labelling'}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      {lead && (
        <>
          <section aria-labelledby="all-sets" className="flex flex-col gap-2">
            <h2 id="all-sets" className="text-sm font-semibold">
              All sets
            </h2>
            <DataTable
              label="All calibration sets"
              columns={SET_COLUMNS}
              rows={sets}
              rowKey={(set) => set.id}
              url={{ path: '/calibration', params: await searchParams }}
              defaultSort={{ key: 'created', dir: 'desc' }}
              noun="sets"
              empty="No calibration set yet."
            />
          </section>
          <section aria-labelledby="new-set" className="flex flex-col gap-2">
            <h2 id="new-set" className="text-sm font-semibold">
              New set
            </h2>
            <NewSetForm lineages={lineages} annotators={annotators} />
          </section>
        </>
      )}
    </div>
  );
}
