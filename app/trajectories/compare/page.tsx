import type { Metadata } from 'next';
import Link from 'next/link';
import type { Route } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { formatDuration, shortHash } from '@/lib/dashboard/index.ts';
import {
  compareTrajectories,
  DifferentVersionsError,
  type AlignedTurn,
  type TrajectoryComparison,
  rolloutIdSchema,
  type TrajectoryDetail,
  type TurnView,
} from '@/lib/trajectories/index.ts';
import { ReasonBadges, RewardPill } from '../_components/badges.tsx';

export const metadata: Metadata = { title: 'Compare trajectories' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function Refusal({ children }: { children: string }) {
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-lg font-semibold tracking-tight">Compare trajectories</h1>
      <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
        {children}
      </p>
      <Link href="/trajectories" className="text-sm text-blue-700 hover:underline">
        Back to trajectories
      </Link>
    </div>
  );
}

export default async function ComparePage({ searchParams }: Props) {
  await requirePermission('trajectories.read');
  const raw = await searchParams;
  const a = rolloutIdSchema.safeParse(raw.a);
  const b = rolloutIdSchema.safeParse(raw.b);
  if (!a.success || !b.success) return <Refusal>Give two trajectory ids: /trajectories/compare?a=ID&amp;b=ID.</Refusal>;
  if (a.data === b.data) return <Refusal>That is the same trajectory twice: choose another one to compare with.</Refusal>;
  let comparison: TrajectoryComparison | null;
  try {
    comparison = await compareTrajectories(await requestDb(), a.data, b.data);
  } catch (err) {
    if (err instanceof DifferentVersionsError) return <Refusal>{err.message}</Refusal>;
    throw err;
  }
  if (!comparison) return <Refusal>{`One of the trajectories (${a.data}, ${b.data}) does not exist.`}</Refusal>;
  const { a: left, b: right, turns } = comparison;
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">
          Compare on {left.version.name} <span className="font-mono text-sm font-normal text-zinc-500">{shortHash(left.version.id)}</span>
        </h1>
        <p className="text-sm text-zinc-500" data-testid="compare-summary">
          {turns.length} aligned turns, {comparison.differingTurns} differ.
        </p>
      </div>
      <div className="grid grid-cols-2 gap-3">
        <Summary side="A" t={left} />
        <Summary side="B" t={right} />
      </div>
      <ol className="flex flex-col gap-2">
        {turns.map((turn) => (
          <li
            key={turn.stepId}
            className="grid grid-cols-2 gap-3 [contain-intrinsic-size:auto_160px] [content-visibility:auto]"
            data-differs={turn.commandDiffers || turn.outputDiffers || turn.exitCodeDiffers ? '' : undefined}
          >
            <Side turn={turn.a} aligned={turn} />
            <Side turn={turn.b} aligned={turn} />
          </li>
        ))}
      </ol>
    </div>
  );
}

function Summary({ side, t }: { side: string; t: TrajectoryDetail }) {
  return (
    <div className="flex flex-col gap-1 rounded-lg border border-zinc-200 bg-white px-3 py-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">{side}</span>
        <Link href={`/trajectories/${t.id}` as Route} className="font-mono text-xs text-blue-700 hover:underline">
          {t.id}
        </Link>
        <RewardPill reward={t.reward} passed={t.passed} simulated={t.simulated} />
        <span className="text-xs text-zinc-600">
          {t.passed === null ? 'no verdict' : t.passed ? 'passed' : 'failed'}
          {t.timedOut ? ', timed out' : ''}
        </span>
      </div>
      <p className="text-xs text-zinc-600">
        {t.policy} {t.policyVersion}
        {t.model ? ` · ${t.model}` : ''} · seed {t.seed} · attempt {t.attempt} · {t.turns} turns · {formatDuration(t.durationMs)} · verifier exit{' '}
        {t.verifier.exitCode ?? '—'}
      </p>
      <ReasonBadges reasons={t.reasons} />
    </div>
  );
}

const DIFF = 'bg-amber-50 ring-1 ring-amber-400';

function Side({ turn, aligned }: { turn: TurnView | null; aligned: AlignedTurn }) {
  if (!turn) return <div className="rounded-lg border border-dashed border-zinc-300 px-3 py-2 text-xs text-zinc-400">no step {aligned.stepId}</div>;
  const truncated = turn.outputPreview !== null && turn.outputPreview.length < turn.outputLength;
  return (
    <div className="min-w-0 rounded-lg border border-zinc-200 bg-white text-sm">
      <div className="flex justify-between border-b border-zinc-100 px-3 py-1 text-xs text-zinc-500">
        <span>step {turn.stepId}</span>
        <span className={`tabular-nums ${aligned.exitCodeDiffers ? 'rounded px-1 font-semibold text-amber-900 ' + DIFF : ''}`}>
          exit {turn.exitCode ?? '—'}
        </span>
      </div>
      <div className="flex flex-col gap-1.5 px-3 py-2">
        {turn.message && <p className="whitespace-pre-wrap text-xs text-zinc-700">{turn.message}</p>}
        {turn.command !== null && (
          <pre
            className={`overflow-x-auto rounded px-2 py-1 font-mono text-xs ${aligned.commandDiffers ? DIFF : 'bg-zinc-100'}`}
            data-diff={aligned.commandDiffers ? 'command' : undefined}
          >
            $ {turn.command}
          </pre>
        )}
        {turn.outputPreview !== null && (
          <pre
            className={`max-h-64 overflow-auto whitespace-pre-wrap break-all rounded px-2 py-1 font-mono text-xs ${aligned.outputDiffers ? DIFF : 'bg-zinc-50'}`}
          >
            {turn.outputPreview || '(no output)'}
            {truncated && (
              <span className="text-zinc-400">{`\n… ${turn.outputLength - turn.outputPreview.length} more characters (open the trajectory for all)`}</span>
            )}
          </pre>
        )}
      </div>
    </div>
  );
}
