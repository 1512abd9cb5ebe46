import Link from 'next/link';
import type { Route } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { currentUser } from '@/app/_server/session.ts';
import { can } from '@/lib/auth/index.ts';
import { formatTimestamp } from '@/lib/dashboard/index.ts';
import { versionCompromise } from '@/lib/trajectories/index.ts';

// Shown when this generation's version was flagged as reward-hackable from a trajectory: the
// scheduler no longer serves it. Annotators label blind, so they get no link to the trajectory.
export async function CompromisedBanner({ versionId }: { versionId: string | null }) {
  if (!versionId) return null;
  const compromise = await versionCompromise(await requestDb(), versionId);
  if (!compromise) return null;
  const user = await currentUser();
  const mayReadTrajectories = user !== null && can(user.role, 'trajectories.read');
  return (
    <div role="alert" data-testid="compromised-banner" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
      <p className="font-semibold">This version is compromised: flagged as a reward hack, no longer served for training.</p>
      <p className="mt-1">
        Flagged{compromise.flaggedBy ? ` by ${compromise.flaggedBy}` : ''} on {formatTimestamp(compromise.flaggedAt ?? compromise.compromisedAt)}
        {compromise.reason ? <>: “{compromise.reason}”</> : '.'}
      </p>
      <p className="mt-1 flex flex-wrap gap-4">
        {compromise.rolloutId && mayReadTrajectories && (
          <Link className="font-medium underline" href={`/trajectories/${compromise.rolloutId}` as Route}>
            The trajectory
          </Link>
        )}
        {compromise.missedIssueId && (
          <Link className="font-medium underline" href={`/missed-issues/${compromise.missedIssueId}` as Route}>
            The missed issue
          </Link>
        )}
      </p>
    </div>
  );
}
