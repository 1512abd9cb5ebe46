import type { EnvironmentDetail } from '@/lib/dashboard/index.ts';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache, Fragment, type ReactNode } from 'react';
import { requestDb } from '@/app/_server/db.ts';
import { resolveShortIdOrNotFound } from '@/app/_server/short-id.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { getEnvironment, formatTimestamp, environmentIdSchema } from '@/lib/dashboard/index.ts';
import { latestProfile } from '@/lib/rollout/index.ts';
import { REFERENCE_TABLE } from '@/lib/difficulty/index.ts';
import { describeSandboxRuntime } from '@/lib/sandbox/index.ts';
import { DescribeSeedForm } from './describe-seed-form.tsx';
import { FilesTable } from './files-table.tsx';
import { TaskConfig } from './task-config.tsx';
import { LatencyProfile } from './latency-profile.tsx';
import { ValidatorRuns } from './validator-runs.tsx';

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// cache(): metadata and page share one query per request.
const loadEnvironment = cache(async (rawId: string) => {
  // Here rather than in the page: metadata renders first and must not reveal a name either.
  await requirePermission('dashboard.read');
  const id = environmentIdSchema.safeParse(rawId);
  if (!id.success) return resolveShortIdOrNotFound('version', rawId);
  const db = await requestDb();
  const [environment, profile] = await Promise.all([getEnvironment(db, id.data), latestProfile(db, id.data)]);
  if (!environment) notFound();
  return { ...environment, profile };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await loadEnvironment((await params).id)).name };
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const headingId = `panel-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-zinc-200 bg-white">
      <h2 id={headingId} className="border-b border-zinc-100 px-4 py-2.5 text-sm font-semibold">
        {title}
      </h2>
      <div className="px-4 py-3">{children}</div>
    </section>
  );
}

function SequenceAndDifficulty({
  sequence,
  difficulty,
  measured,
}: {
  sequence: NonNullable<EnvironmentDetail['sequence']>;
  difficulty: EnvironmentDetail['difficulty'];
  measured: EnvironmentDetail['measuredTurns'];
}) {
  return (
    <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
      <table className="w-full text-left text-xs">
        <thead className="text-zinc-500">
          <tr>
            <th className="py-1 pr-3 font-medium">Step</th>
            <th className="py-1 pr-3 font-medium">Scenario</th>
            <th className="py-1 pr-3 font-medium">Skill</th>
            <th className="py-1 font-medium">Consumes</th>
          </tr>
        </thead>
        <tbody>
          {sequence.map((step) => (
            <tr key={step.id} className="border-t border-zinc-100">
              <td className="py-1 pr-3 font-mono">{step.id}</td>
              <td className="py-1 pr-3">{step.scenario}</td>
              <td className="py-1 pr-3">{step.skill}</td>
              <td className="py-1 font-mono text-zinc-500">{step.dependsOn.join(', ') || '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {difficulty && 'unknown' in difficulty ? (
        <p className="text-xs text-zinc-500" aria-label="Difficulty">
          D {difficulty.label}: step{difficulty.undescribedSteps.length === 1 ? '' : 's'} {difficulty.undescribedSteps.join(', ')}{' '}
          {difficulty.undescribedSteps.length === 1 ? 'is' : 'are'} the imported task as one opaque step, which D cannot price. Describe its sequence below (or
          evolve it with Claude, which extracts its steps).
        </p>
      ) : difficulty ? (
        <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-xs" aria-label="Difficulty">
          <dt className="text-zinc-500">L (expected turns)</dt>
          <dd className="text-right font-mono">{difficulty.length}</dd>
          {measured.map((m) => (
            <Fragment key={m.policy}>
              <dt className="pl-2 text-zinc-500">
                measured median, {m.policy}
                {m.simulated ? ' (simulated)' : ''}
              </dt>
              <dd className="text-right font-mono">
                {m.medianTurns} <span className="text-zinc-400">over {m.rollouts}</span>
                {m.sandboxRuntimes.length > 0 && <span className="text-zinc-400"> under {m.sandboxRuntimes.join(', ')}</span>}
              </dd>
            </Fragment>
          ))}
          <dt className="text-zinc-500">Chain depth</dt>
          <dd className="text-right font-mono">{difficulty.depth ?? '—'}</dd>
          <dt className="text-zinc-500">Scenario novelty</dt>
          <dd className="text-right font-mono">{difficulty.scenarioNovelty.toFixed(2)}</dd>
          <dt className="text-zinc-500">Skill rarity</dt>
          <dd className="text-right font-mono">{difficulty.skillRarity.toFixed(2)}</dd>
          <dt className="font-medium">Total D</dt>
          <dd className="text-right font-mono font-medium">{difficulty.total.toFixed(2)}</dd>
          <dt className="col-span-2 mt-1 text-zinc-400">reference model {difficulty.model}</dt>
        </dl>
      ) : (
        <p className="text-xs text-zinc-500">Difficulty is computed when the version first parents a generation.</p>
      )}
    </div>
  );
}

// What the version's trials run under and why. The task's own sandbox_runtime may only raise
// isolation: "runc" there changes nothing.
function SandboxRuntimeNote({ runtime }: { runtime: EnvironmentDetail['sandboxRuntime'] }) {
  return (
    <p data-testid="sandbox-runtime" className="mb-3 text-sm text-zinc-700">
      Trials run under {describeSandboxRuntime(runtime)}.
      {runtime.required && (
        <span className="text-zinc-500">
          {' '}
          The task asks for <code className="font-mono">sandbox_runtime = &quot;{runtime.required}&quot;</code>
          {runtime.required === 'runc' ? ', which cannot lower isolation: it changes nothing.' : '.'}
        </span>
      )}
    </p>
  );
}

export default async function EnvironmentPage({ params, searchParams }: Props) {
  const env = await loadEnvironment((await params).id);
  return (
    <div className="flex flex-col gap-5">
      <div>
        <nav aria-label="Breadcrumb" className="text-xs text-zinc-500">
          <Link href="/environments" className="hover:text-zinc-800 hover:underline">
            Environments
          </Link>
          <span aria-hidden> / </span>
        </nav>
        <h1 className="mt-1 text-lg font-semibold tracking-tight">{env.name}</h1>
        <p className="mt-0.5 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-500">
          <span className="break-all font-mono text-zinc-700">{env.id}</span>
          <span>source {env.source}</span>
          <span>
            created <time dateTime={env.createdAt}>{formatTimestamp(env.createdAt)}</time>
          </span>
        </p>
      </div>

      <div className="grid gap-5 lg:grid-cols-2">
        <Panel title="Instruction">
          <pre tabIndex={0} className="max-h-[28rem] overflow-auto whitespace-pre-wrap break-words font-sans text-sm leading-relaxed">
            {env.instruction}
          </pre>
        </Panel>
        <Panel title="Task configuration">
          {env.internetRequested.length > 0 ? (
            <p role="note" className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-300">
              This task asks for internet ({env.internetRequested.map((t) => `[${t}] allow_internet = true`).join(', ')}). Envolve runs the agent and the
              verifier offline: whatever needs the network fails, and its validation says so.
            </p>
          ) : null}
          <SandboxRuntimeNote runtime={env.sandboxRuntime} />
          <TaskConfig sections={env.taskTomlSections} error={env.taskTomlError} raw={env.taskToml} />
        </Panel>
      </div>

      {env.sequence || env.describable ? (
        <Panel title="Scenario–skill sequence and difficulty">
          {env.sequence ? <SequenceAndDifficulty sequence={env.sequence} difficulty={env.difficulty} measured={env.measuredTurns} /> : null}
          {env.describable ? (
            <DescribeSeedForm
              versionId={env.id}
              current={(env.sequence ?? []).map((s) => `${s.scenario}:${s.skill}`).join(', ')}
              scenarios={[...REFERENCE_TABLE.scenarios.keys()]}
              skills={[...REFERENCE_TABLE.skillMarginal.keys()]}
            />
          ) : null}
        </Panel>
      ) : null}

      <Panel title={`Files (${env.files.length})`}>
        <FilesTable files={env.files} path={`/environments/${env.id}`} params={await searchParams} />
      </Panel>

      <Panel title="Latency profile">
        <LatencyProfile profile={env.profile} />
      </Panel>

      <ValidatorRuns versionId={env.id} initial={{ runs: env.runs, validationPending: env.validationPending }} />
    </div>
  );
}
