import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache, type ReactNode } from 'react';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { getLineageTree } from '@/lib/dashboard/lineages.ts';
import type { LineageTree } from '@/lib/dashboard/lineages-types.ts';
import { lineageIdSchema } from '@/lib/dashboard/lineages-params.ts';
import { LineageStatusBadge } from '../lineage-status-badge.tsx';
import { LineageTreeView } from './tree-view.tsx';

type Props = { params: Promise<{ id: string }> };

// cache(): metadata and page share one read per request.
const loadTree = cache(async (rawId: string) => {
  await requirePermission('dashboard.read');
  const id = lineageIdSchema.safeParse(rawId);
  if (!id.success) notFound();
  const tree = await getLineageTree(await requestDb(), id.data);
  if (!tree) notFound();
  return tree;
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await loadTree((await params).id)).name };
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline gap-1.5">
      <dt className="text-zinc-500">{label}</dt>
      <dd className="font-medium text-zinc-900">{children}</dd>
    </div>
  );
}

// Axes on which the proposer found no edit that raises D: a fixed-axis lineage stops there, a
// mixed one skips the axis until its parent changes.
function ExhaustedAxesNote({ exhausted }: { exhausted: LineageTree['exhaustedAxes'] }) {
  const entries = Object.entries(exhausted);
  if (entries.length === 0) return null;
  return (
    <ul aria-label="Exhausted axes" className="flex flex-col gap-0.5 text-sm text-yellow-900">
      {entries.map(([axis, e]) => (
        <li key={axis}>
          <span className="font-medium">{axis} axis exhausted at generation {e!.generation}</span>
          <span className="text-zinc-600">: {e!.reason}</span>
        </li>
      ))}
    </ul>
  );
}

export default async function LineagePage({ params }: Props) {
  const tree = await loadTree((await params).id);
  const settled = tree.generations.filter((g) => g.versionId !== null).length;
  const failed = tree.generations.filter((g) => g.state === 'failed').length;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <nav aria-label="Breadcrumb" className="text-xs text-zinc-500">
          <Link href="/lineages" className="hover:text-zinc-800 hover:underline">
            Lineages
          </Link>
          <span aria-hidden> / </span>
        </nav>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-lg font-semibold tracking-tight">{tree.name}</h1>
          <LineageStatusBadge status={tree.status} />
        </div>
        <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
          <Fact label="Seed">{tree.seed.name}</Fact>
          <Fact label="Generations">
            {settled}
            {failed > 0 && <span className="font-normal text-red-700"> +{failed} failed</span>}
          </Fact>
          <Fact label="Frontier">{tree.frontier === null ? '–' : `G${tree.frontier}`}</Fact>
          <Fact label="Synthesiser">{tree.synthesiser}</Fact>
          <Fact label="Axis · effort">{`${tree.axisPolicy} · ${tree.effort}`}</Fact>
          <Fact label="Approvals required">{tree.approvalsRequired}</Fact>
        </dl>
        <ExhaustedAxesNote exhausted={tree.exhaustedAxes} />
      </div>
      <LineageTreeView initial={tree} />
    </div>
  );
}
