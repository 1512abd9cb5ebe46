import type { Metadata } from 'next';
import Link from 'next/link';
import type { Route } from 'next';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { cache } from 'react';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { Panel } from '@/app/generations/[id]/panel.tsx';
import { can } from '@/lib/auth/index.ts';
import { formatDuration, formatReward, shortHash } from '@/lib/dashboard/index.ts';
import { getTrajectory, rolloutIdSchema, siblingTrajectories, trajectoryListFromParams, trajectoryListSearch } from '@/lib/trajectories/index.ts';
import { FlagLabel, ReasonBadges, RewardPill } from '../_components/badges.tsx';
import { ChangedFiles } from './changed-files.tsx';
import { FlagPanel } from './flag-panel.tsx';
import { TrajectoryViewer } from './trajectory-viewer.tsx';

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const load = cache(async (rawId: string) => {
  const user = await requirePermission('trajectories.read');
  const id = rolloutIdSchema.safeParse(rawId);
  if (!id.success) notFound();
  const db = await requestDb();
  const detail = await getTrajectory(db, id.data);
  if (!detail) notFound();
  return { user, detail, siblings: await siblingTrajectories(db, detail.id, detail.version.id) };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { detail } = await load((await params).id);
  return { title: `Trajectory ${detail.id.slice(0, 10)} · ${detail.version.name}` };
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col">
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}

export default async function TrajectoryPage({ params, searchParams }: Props) {
  const { user, detail: t, siblings } = await load((await params).id);
  const listSearch = trajectoryListSearch({ ...trajectoryListFromParams(await searchParams), page: 1 });
  const tokens = t.tokens.prompt === null && t.tokens.completion === null ? null : (t.tokens.prompt ?? 0) + (t.tokens.completion ?? 0);
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-2">
        <nav aria-label="Breadcrumb" className="text-xs text-zinc-500">
          <Link href={`/trajectories${listSearch}` as Route} className="hover:text-zinc-800 hover:underline">
            Trajectories
          </Link>
          <span aria-hidden> / </span>
          <span className="font-mono">{t.id}</span>
        </nav>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-lg font-semibold tracking-tight">
            <Link href={`/environments/${t.version.id}` as Route} className="hover:underline">
              {t.version.name}
            </Link>{' '}
            <span className="font-mono text-sm font-normal text-zinc-500">{shortHash(t.version.id)}</span>
          </h1>
          <RewardPill reward={t.reward} passed={t.passed} simulated={t.simulated} />
          {t.version.compromisedAt && <FlagLabel>version compromised</FlagLabel>}
          <ReasonBadges reasons={t.reasons} />
        </div>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 rounded-lg border border-zinc-200 bg-white px-4 py-3 text-sm sm:grid-cols-4 lg:grid-cols-7">
          <Fact label="Lineage · generation">
            {t.lineage ? (
              <Link className="text-blue-700 hover:underline" href={`/lineages/${t.lineage.id}` as Route}>
                {t.lineage.name}
              </Link>
            ) : (
              '—'
            )}
            {t.generation && (
              <>
                {' · '}
                <Link className="text-blue-700 hover:underline" href={`/generations/${t.generation.id}` as Route}>
                  {t.generation.number}
                </Link>
              </>
            )}
          </Fact>
          <Fact label="Policy">
            {t.policy} {t.policyVersion}
            {t.model && <span className="text-zinc-500"> · {t.model}</span>}
          </Fact>
          <Fact label="Seed · attempt">
            {t.seed} · #{t.attempt}
          </Fact>
          <Fact label="Reward · passed">
            {formatReward(t.reward)} · {t.passed === null ? '—' : t.passed ? 'passed' : 'failed'}
            {t.simulated && <span className="text-violet-700"> (simulated)</span>}
          </Fact>
          <Fact label="Status">{t.timedOut ? 'timed out' : t.status}</Fact>
          <Fact label="Duration">
            {formatDuration(t.durationMs)}
            <span className="text-xs text-zinc-500">
              {' '}
              (agent {formatDuration(t.agentDurationMs)}, verifier {formatDuration(t.verifierDurationMs)})
            </span>
          </Fact>
          <Fact label="Turns · tokens">
            {t.turns}
            {t.medianTurns !== null && <span className="text-zinc-500"> (median {Math.round(t.medianTurns)})</span>} · {tokens ?? '—'}
          </Fact>
          <Fact label="Image">
            <span className="font-mono text-xs">{t.imageId ? shortHash(t.imageId, 19) : '—'}</span>
          </Fact>
        </dl>
        {t.error && (
          <p role="note" className="whitespace-pre-wrap rounded-md bg-red-50 px-3 py-2 font-mono text-xs text-red-800">
            {t.error}
          </p>
        )}
      </div>

      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-5">
          <Panel id="instruction" title="Instruction">
            <p className="max-h-64 overflow-auto whitespace-pre-wrap text-sm">{t.instruction}</p>
          </Panel>
          <TrajectoryViewer
            trajectoryId={t.id}
            turns={t.steps}
            listSearch={listSearch}
            missedIssueHref={
              t.generation && can(user.role, 'missed-issue.file') ? `/generations/${t.generation.id}/missed-issue/new?trajectory=${t.id}` : undefined
            }
          />
          <Panel
            id="verifier"
            title="Verifier"
            aside={
              <span className="text-xs tabular-nums text-zinc-600">
                exit {t.verifier.exitCode ?? '—'} · reward {formatReward(t.reward)}
              </span>
            }
          >
            {t.verifier.tests && (
              <table className="mb-3 w-full text-sm" data-testid="ctrf-tests">
                <tbody className="divide-y divide-zinc-100">
                  {t.verifier.tests.map((test) => (
                    <tr key={test.name}>
                      <td
                        className={`py-1 pr-2 text-xs font-medium ${test.status === 'passed' ? 'text-emerald-700' : test.status === 'failed' ? 'text-red-700' : 'text-zinc-500'}`}
                      >
                        {test.status}
                      </td>
                      <td className="py-1 font-mono text-xs">{test.name}</td>
                      <td className="py-1 text-right text-xs tabular-nums text-zinc-500">{test.durationMs === null ? '' : formatDuration(test.durationMs)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {t.verifier.rewardDetail && <p className="mb-2 font-mono text-xs text-zinc-600">reward.json {t.verifier.rewardDetail}</p>}
            <pre className="max-h-96 overflow-auto whitespace-pre-wrap rounded bg-zinc-50 px-2 py-1.5 font-mono text-xs ring-1 ring-zinc-200">
              {t.verifier.log || '(no verifier output)'}
            </pre>
          </Panel>
        </div>
        <div className="flex flex-col gap-5 lg:sticky lg:top-4 lg:self-start">
          <Panel id="flag" title="Reward hack?">
            <FlagPanel
              trajectoryId={t.id}
              flaggedAt={t.flaggedAt}
              flaggedBy={t.flaggedBy}
              compromised={t.version.compromisedAt !== null}
              canFlag={can(user.role, 'trajectory.flag')}
              canUnflag={can(user.role, 'scheduler.manage')}
            />
            {t.version.compromisedReason && <p className="mt-2 text-xs text-zinc-600">Version compromised: {t.version.compromisedReason}</p>}
          </Panel>
          <Panel id="files" title={`Files the agent changed (${t.changedFiles.length})`}>
            <ChangedFiles trajectoryId={t.id} files={t.changedFiles} />
          </Panel>
          <Panel id="compare" title="Compare with…">
            {siblings.length === 0 ? (
              <p className="text-sm text-zinc-500">No other trajectory of this version.</p>
            ) : (
              <form action="/trajectories/compare" className="flex gap-2">
                <input type="hidden" name="a" value={t.id} />
                <label className="sr-only" htmlFor="compare-b">
                  Other trajectory of this version
                </label>
                <select id="compare-b" name="b" className="h-8 min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 text-sm">
                  {siblings.map((s) => (
                    <option key={s.id} value={s.id}>
                      reward {formatReward(s.reward)}
                      {s.simulated ? ' (simulated)' : ''} · {s.turns} turns · {s.policy} #{s.attempt}
                    </option>
                  ))}
                </select>
                <button type="submit" className="h-8 rounded-md border border-zinc-300 bg-white px-3 text-sm font-medium text-zinc-700 hover:bg-zinc-50">
                  Compare
                </button>
              </form>
            )}
          </Panel>
        </div>
      </div>
    </div>
  );
}
