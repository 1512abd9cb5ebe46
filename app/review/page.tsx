import type { Metadata } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { reviewQueue } from '@/lib/review/index.ts';
import { ReviewQueue } from './review-queue.tsx';

export const metadata: Metadata = { title: 'Review queue' };

type Props = { searchParams: Promise<{ page?: string }> };

export default async function ReviewQueuePage({ searchParams }: Props) {
  await requirePermission('dashboard.read');
  const page = Math.max(1, Number.parseInt((await searchParams).page ?? '1', 10) || 1);
  const queue = await reviewQueue(await requestDb(), { page });
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Review queue</h1>
        <p className="mt-0.5 text-xs text-zinc-600">
          {queue.total} generations awaiting review, longest-waiting first. Press{' '}
          <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1 font-mono">?</kbd> for keyboard shortcuts.
        </p>
      </div>
      <ReviewQueue queue={queue} />
    </div>
  );
}
