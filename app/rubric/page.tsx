import type { Metadata } from 'next';
import Link from 'next/link';
import type { Route } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { Badge } from '@/app/missed-issues/labels.tsx';
import { can } from '@/lib/auth/index.ts';
import { listRubricCatalogue, rubricVersionLabel } from '@/lib/rubric/index.ts';
import { ActiveToggle } from './_components/active-toggle.tsx';

export const metadata: Metadata = { title: 'Rubric' };

export default async function RubricPage() {
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
      <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-zinc-200 bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
            <tr>
              <th scope="col" className="px-3 py-2">
                Item
              </th>
              <th scope="col" className="px-3 py-2">
                In force
              </th>
              <th scope="col" className="px-3 py-2">
                Versions
              </th>
              <th scope="col" className="px-3 py-2">
                Source
              </th>
              <th scope="col" className="px-3 py-2">
                Scope
              </th>
              <th scope="col" className="px-3 py-2">
                Judges
              </th>
              <th scope="col" className="px-3 py-2">
                Method
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Verdicts
              </th>
              {mayManage && (
                <th scope="col" className="px-3 py-2">
                  <span className="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {keys.map((k) => {
              const newest = k.versions[0]!;
              const shown = k.inForce ?? newest;
              return (
                <tr key={k.key} className="align-top hover:bg-zinc-50">
                  <td className="px-3 py-2">
                    <Link href={`/rubric/${shown.id}` as Route} className="font-medium hover:underline">
                      {shown.title}
                    </Link>
                    <div className="font-mono text-xs text-zinc-500">{k.key}</div>
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">{k.inForce ? <Badge value={`active v${k.inForce.version}`} /> : <Badge value="inactive" />}</td>
                  <td className="px-3 py-2 font-mono text-xs text-zinc-600">{k.versions.map((v) => `v${v.version}`).join(' ')}</td>
                  <td className="px-3 py-2 text-zinc-600">{k.source}</td>
                  <td className="px-3 py-2 text-zinc-600">{shown.scope === 'lineage' ? `lineage: ${k.lineageName ?? shown.lineageId}` : 'global'}</td>
                  <td className="px-3 py-2 text-zinc-600">{shown.appliesTo}</td>
                  <td className="px-3 py-2 text-zinc-600">{[shown.check ? 'check' : '', shown.question ? 'LLM' : ''].filter(Boolean).join(' + ')}</td>
                  <td className="px-3 py-2 text-right tabular-nums text-zinc-600">{k.verdictCount}</td>
                  {mayManage && (
                    <td className="px-3 py-2 text-right">
                      <ActiveToggle itemId={newest.id} active={newest.active} label={`${k.key}@${newest.version}`} scope={newest.scope} />
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
