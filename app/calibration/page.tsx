import type { Metadata } from 'next';
import Link from 'next/link';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { can, PERMISSIONS } from '@/lib/auth/index.ts';
import { listCalibrationSets, listSetsForAnnotator, describeScope } from '@/lib/calibration/index.ts';
import { NewSetForm } from './new-set-form.tsx';

export const metadata: Metadata = { title: 'Calibration' };

export default async function CalibrationPage() {
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
            <table className="w-full text-left text-sm">
              <thead className="text-xs text-zinc-500">
                <tr>
                  <th className="py-1 pr-3 font-medium">Set</th>
                  <th className="py-1 pr-3 font-medium">Scope</th>
                  <th className="py-1 pr-3 font-medium">Strata (pass/fail)</th>
                  <th className="py-1 pr-3 font-medium">Labels</th>
                  <th className="py-1 pr-3 font-medium">State</th>
                  <th className="py-1 pr-3 font-medium">Created</th>
                </tr>
              </thead>
              <tbody>
                {sets.map((s) => (
                  <tr key={s.id} className="border-t border-zinc-100">
                    <td className="py-1.5 pr-3">
                      <Link href={`/calibration/${s.id}`} className="font-medium underline">
                        {s.name}
                      </Link>
                    </td>
                    <td className="py-1.5 pr-3 text-zinc-600">{describeScope(s.scope)}</td>
                    <td className="py-1.5 pr-3 tabular-nums">
                      {s.strata.pass}/{s.strata.fail} <span className="text-zinc-400">({Math.round(s.passShare * 100)}% pass)</span>
                    </td>
                    <td className="py-1.5 pr-3 tabular-nums">
                      {s.labels}/{s.labelsNeeded}
                    </td>
                    <td className="py-1.5 pr-3">{s.state}</td>
                    <td className="py-1.5 pr-3 text-zinc-500">{s.createdAt.toISOString().slice(0, 10)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {sets.length === 0 && <p className="text-sm text-zinc-500">No calibration set yet.</p>}
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
