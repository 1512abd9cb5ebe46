'use client';

// Queues a re-score of the set with the current verifier; the workers run it.
import { useState } from 'react';
import { secondaryButtonClass } from '../_components/classes.ts';

export function RescoreButton({ setId }: { setId: string }) {
  const [message, setMessage] = useState<string | null>(null);
  async function rescore() {
    const response = await fetch(`/api/calibration/sets/${setId}/rescore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const json = (await response.json().catch(() => null)) as { jobId?: string; message?: string } | null;
    setMessage(response.ok ? `Queued as job ${json?.jobId}; reload when the workers are done.` : (json?.message ?? `HTTP ${response.status}`));
  }
  return (
    <div className="flex items-center gap-3">
      <button type="button" onClick={rescore} className={secondaryButtonClass}>
        Re-score with the current verifier
      </button>
      {message && <span role="status" className="text-sm text-zinc-600">{message}</span>}
    </div>
  );
}
