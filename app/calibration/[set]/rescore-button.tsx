'use client';

// Queues a re-score of the set with the current verifier; the workers run it.
import { useJsonMutation } from '@/app/_components/use-json-mutation.ts';
import { buttonClass } from '@/app/_components/ui.ts';

export function RescoreButton({ setId }: { setId: string }) {
  const rescore = useJsonMutation<{ jobId: string }>(() => ({ url: `/api/calibration/sets/${setId}/rescore`, body: {} }), { refresh: false });
  return (
    <div className="flex items-center gap-3">
      <button type="button" onClick={() => rescore.mutate()} disabled={rescore.isPending} className={buttonClass}>
        {rescore.isPending ? 'Queuing re-score…' : 'Re-score with the current verifier'}
      </button>
      {rescore.isSuccess && (
        <span role="status" className="text-sm text-zinc-600">
          Queued as job {rescore.data.jobId}; reload when the workers are done.
        </span>
      )}
      {rescore.isError && (
        <span role="alert" className="text-sm text-red-700">
          {rescore.error.message}
        </span>
      )}
    </div>
  );
}
