// Pass rate by checkpoint: every version of the lineages' gating policies, pooled over the groups it
// reported. Each checkpoint was served the frontiers of its own time, so the rows are not a
// like-for-like comparison; only the newest checkpoint's groups move frontiers.
import type { CheckpointPassRate } from '@/lib/drift/index.ts';

export function CheckpointTable({ checkpoints }: { checkpoints: CheckpointPassRate[] }) {
  if (checkpoints.length === 0) return <p className="text-sm text-zinc-500">No complete group of a gating policy yet.</p>;
  const cell = 'py-1 pr-4';
  return (
    <>
      <p className="text-xs text-zinc-500">
        Pooled passes / rollouts over each checkpoint&rsquo;s complete groups (probes and trainer reports). Each checkpoint was served the frontiers of its own
        time, so a later one meets harder environments: compare with care. Only the newest checkpoint of a policy gates releases.
      </p>
      <table className="text-sm" data-testid="checkpoints">
        <thead className="text-left text-xs text-zinc-500">
          <tr>
            <th className={`${cell} font-medium`}>Policy</th>
            <th className={`${cell} font-medium`}>Checkpoint</th>
            <th className={`${cell} font-medium`}>First reported</th>
            <th className={`${cell} font-medium`}>Groups</th>
            <th className={`${cell} font-medium`}>Environments</th>
            <th className={`${cell} font-medium`}>Pass rate</th>
          </tr>
        </thead>
        <tbody>
          {checkpoints.map((c) => (
            <tr key={`${c.policy}\u0000${c.policyVersion}`} className="border-t border-zinc-100" data-testid={`checkpoint-${c.policy}-${c.policyVersion}`}>
              <td className={cell}>{c.policy}</td>
              <td className={cell}>
                {c.policyVersion || '(no version)'}
                {c.newest && <span className="ml-1.5 rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-900">newest: gates</span>}
              </td>
              <td className={`${cell} tabular-nums`}>{c.firstReportedAt.slice(0, 16).replace('T', ' ')} UTC</td>
              <td className={`${cell} tabular-nums`}>{c.groups}</td>
              <td className={`${cell} tabular-nums`}>{c.environments}</td>
              <td className={`${cell} tabular-nums`}>
                {c.passRate === null ? '–' : `${c.passes}/${c.rollouts} (${(c.passRate * 100).toFixed(1)}%)`}
                {c.policy === 'simulated' && <span className="ml-1.5 text-xs text-amber-800">simulated: tests the pipeline, not the method</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
