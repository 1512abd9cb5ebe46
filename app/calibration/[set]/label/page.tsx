import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { annotatorIdsOf } from '@/lib/calibration/index.ts';
import { Labeller } from './labeller.tsx';

export const metadata: Metadata = { title: 'Label' };

export default async function LabelPage({ params }: { params: Promise<{ set: string }> }) {
  const user = await requirePermission('calibration.label');
  const { set: setId } = await params;
  const set = await (await requestDb()).calibrationSet.findUnique({ where: { id: setId }, select: { name: true, annotatorIds: true } });
  if (!set || !annotatorIdsOf(set.annotatorIds).includes(user.id)) notFound();
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">{set.name}</h1>
        <p className="text-sm text-zinc-500">Judge from the trajectory and the files whether the agent really did the task. Press ? for the shortcuts.</p>
      </div>
      <Labeller setId={setId} />
    </div>
  );
}
