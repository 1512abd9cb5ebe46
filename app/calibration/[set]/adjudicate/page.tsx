import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { adjudicationQueue, CalibrationNotFoundError, trajectoryView } from '@/lib/calibration/index.ts';
import { Trajectory } from '../../_components/trajectory.tsx';
import { AdjudicateForm } from './adjudicate-form.tsx';

export const metadata: Metadata = { title: 'Adjudicate' };

export default async function AdjudicatePage({ params }: { params: Promise<{ set: string }> }) {
  await requirePermission('calibration.manage');
  const { set: setId } = await params;
  const db = await requestDb();
  const set = await db.calibrationSet.findUnique({ where: { id: setId }, select: { name: true } });
  if (!set) notFound();
  let items;
  try {
    items = await adjudicationQueue(db, setId);
  } catch (err) {
    if (err instanceof CalibrationNotFoundError) notFound();
    throw err;
  }
  const trajectories = await Promise.all(items.map((i) => trajectoryView(db, i.rolloutId)));
  const open = items.filter((i) => i.finalLabel === null).length;

  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Adjudicate · {set.name}</h1>
        <p className="text-sm text-zinc-500">
          {open} open disagreement(s). The verifier&apos;s verdict is not shown here either: the final label is the ground truth it is measured against.{' '}
          <Link href={`/calibration/${setId}`} className="underline">
            Back to the metrics
          </Link>
        </p>
      </div>
      {items.length === 0 && <p className="text-sm text-zinc-500">The annotators agree on every labelled item.</p>}
      <ol className="flex flex-col gap-4">
        {items.map((item, n) => (
          <li key={item.id} data-testid="disagreement" className="flex flex-col gap-3 rounded-lg border border-zinc-200 bg-white p-4">
            <div className="flex flex-wrap items-baseline gap-3">
              <h2 className="text-base font-semibold">Item {item.position}</h2>
              {item.finalLabel ? (
                <span data-testid="final-label" className="text-sm text-zinc-600">
                  final: <strong>{item.finalLabel}</strong> by {item.adjudicatedBy}
                </span>
              ) : (
                <span className="text-sm text-amber-700">open</span>
              )}
            </div>
            <ul className="text-sm">
              {item.labels.map((l) => (
                <li key={l.annotator.id}>
                  {l.annotator.name}: <strong>{l.answer}</strong>
                  {l.note && <span className="text-zinc-500"> — {l.note}</span>}
                </li>
              ))}
            </ul>
            <details>
              <summary className="cursor-pointer text-sm text-zinc-600">Trajectory and files</summary>
              <div className="mt-3">
                <Trajectory trajectory={trajectories[n]!} />
              </div>
            </details>
            <AdjudicateForm setId={setId} itemId={item.id} current={item.finalLabel} />
          </li>
        ))}
      </ol>
    </div>
  );
}
