import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense, type ReactNode } from 'react';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import {
  alertThresholdsSchema,
  DEFAULT_ALERT_THRESHOLDS,
  driftFilterFromSearchParams,
  driftSearch,
  loadDriftFunnel,
  loadDriftView,
} from '@/lib/drift/index.ts';
import { DifficultyOutcomeTable } from './difficulty-outcome.tsx';
import { AlertsList } from './alerts-list.tsx';
import { chartSpecs, type PositionIndex } from './chart-data.ts';
import { DriftCharts } from './drift-charts.tsx';
import { DriftFilters } from './drift-filters.tsx';
import { EffectSpectrumTable } from './effect-spectrum.tsx';
import { SeedFunnel } from './seed-funnel.tsx';
import { CheckpointOverlay } from './checkpoint-overlay.tsx';
import { CheckpointTable } from './checkpoints.tsx';

export const metadata: Metadata = { title: 'Drift' };

// Point colours in the per-lineage view (as in the charts and the spectrum).
const AXIS_KEY = { length: 'var(--color-sky-600)', scenario: 'var(--color-amber-600)', skill: 'var(--color-emerald-600)' };

function Section({ title, aside, children, testId }: { title: string; aside?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section className="flex flex-col gap-2" data-testid={testId}>
      <div className="flex items-baseline justify-between gap-3">
        <h2 className="text-sm font-semibold tracking-tight text-zinc-900">{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

export default async function DriftPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission('drift.read');
  const raw = await searchParams;
  const filter = driftFilterFromSearchParams(raw);
  const thresholds = alertThresholdsSchema.safeParse(raw).data ?? DEFAULT_ALERT_THRESHOLDS;
  const db = await requestDb();
  const view = await loadDriftView(db, filter, thresholds);
  const single = filter.lineage ? view.lineages.find((l) => l.id === filter.lineage) : undefined;
  const seeds = single ? null : await loadDriftFunnel(db);

  const positions: PositionIndex = new Map(view.positions.flatMap((p) => (p.generationId ? [[p.generationId, { number: p.number, axis: p.axis }]] : [])));
  const charts = chartSpecs(view, positions);
  const search = driftSearch(filter);
  const xLink = (x: 'generation' | 'time') => {
    const query = driftSearch(filter, { x });
    return `/drift${query ? `?${query}` : ''}`;
  };
  const filtered = view.lineages.length !== view.totalLineages;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          {single && (
            <Link href="/drift" className="text-xs text-zinc-500 hover:text-zinc-900">
              ← all lineages
            </Link>
          )}
          <h1 className="text-lg font-semibold tracking-tight">{single ? `Drift · ${single.name}` : 'Drift'}</h1>
          <p className="text-sm text-zinc-500">
            {single ? (
              <>
                Seed {single.seedName} · {single.axisPolicy} · {single.synthesiser} · frontier {single.frontier ?? '–'} ·{' '}
                <Link href={`/lineages/${single.id}`} className="text-blue-700 hover:underline">
                  lineage tree
                </Link>
                <span className="ml-3 inline-flex gap-3 text-xs" aria-label="Point colours: the axis each generation took">
                  {Object.entries(AXIS_KEY).map(([axis, colour]) => (
                    <span key={axis} className="inline-flex items-center gap-1">
                      <span aria-hidden className="size-2 rounded-full" style={{ background: colour }} />
                      {axis}
                    </span>
                  ))}
                </span>
              </>
            ) : (
              <>
                Is evolution still producing learnable difficulty?{' '}
                <span data-testid="lineage-summary">
                  {view.lineages.length} {filtered ? `of ${view.totalLineages} ` : ''}lineages
                </span>
              </>
            )}
          </p>
        </div>
        <div className="flex flex-col items-end gap-2">
          <nav aria-label="x-axis" className="inline-flex rounded-md border border-zinc-300 bg-white p-0.5 text-xs font-medium">
            {(['generation', 'time'] as const).map((x) => (
              <Link
                key={x}
                href={xLink(x)}
                aria-current={filter.x === x ? 'true' : undefined}
                className={`rounded px-2.5 py-1 ${filter.x === x ? 'bg-zinc-900 text-white' : 'text-zinc-600 hover:bg-zinc-50'}`}
              >
                {x === 'generation' ? 'By generation' : 'By time'}
              </Link>
            ))}
          </nav>
        </div>
      </div>
      {!single && filter.lineage && <p className="text-sm text-red-700">No lineage has the id {filter.lineage}.</p>}
      {!single && <DriftFilters filter={filter} facets={view.facets} policies={view.passRatePolicy.policies} />}
      <p className="text-sm text-zinc-600" data-testid="pass-rate-policy">
        Pass rates and turns: {view.passRatePolicy.label}.
      </p>

      {/* Everything but the charts sits in boundaries: the browser hydrates a boundary after the
          rest, so the charts are drawn before the 127 outcome scatters and the alerts are hydrated. */}
      <Suspense>
        <Section
          title={`Alerts (${view.alerts.length})`}
          testId="alerts"
          aside={
            <a href={`/api/drift/csv?chart=alerts${search ? `&${search}` : ''}`} className="text-xs text-zinc-500 hover:text-zinc-900" download>
              CSV
            </a>
          }
        >
          <AlertsList alerts={view.alerts} />
        </Section>
      </Suspense>

      <Section title={filter.x === 'time' ? 'Over time' : 'Over generations'}>
        <p className={`text-xs ${view.axes.pooled ? 'text-amber-800' : 'text-zinc-500'}`} data-testid="axis-pooling">
          Bands: {view.axes.label}.{view.unknownDifficulty.note && <span data-testid="unknown-difficulty"> {view.unknownDifficulty.note}.</span>}
        </p>
        <DriftCharts
          charts={charts}
          lineages={view.lineages.map((l) => ({
            id: l.id,
            name: l.name,
            axisPolicy: l.axisPolicy,
            synthesiser: l.synthesiser,
            frontier: l.frontier,
            latestProbe: l.latestProbe,
          }))}
          time={filter.x === 'time'}
          csvBase={search}
          single={Boolean(single)}
        />
      </Section>

      <Suspense>
        <Section title="Pass rate by checkpoint" testId="checkpoint-section">
          <CheckpointOverlay series={view.checkpointSeries} />
          <CheckpointTable checkpoints={view.checkpoints} />
        </Section>

        <Section
          title="Axis effect spectrum"
          aside={
            <a href={`/api/drift/csv?chart=spectrum${search ? `&${search}` : ''}`} className="text-xs text-zinc-500 hover:text-zinc-900" download>
              CSV
            </a>
          }
        >
          <EffectSpectrumTable spectrum={view.spectrum} />
        </Section>

        <Section title="Estimated D against measured outcome">
          <p className="text-xs text-zinc-500">
            Does off-policy difficulty predict on-policy outcome? Pearson r over the positions with a group of the row&rsquo;s policy; — when fewer than three
            or when a side does not vary. Pooled rows pool the lineages of one policy. Figures of the simulated policy test the pipeline, not the method: only a
            policy being trained (trainer groups, or an endpoint policy) is evidence that D predicts outcomes. A pooled row names the axis policies it mixes.
            {view.unknownDifficulty.note && ` ${view.unknownDifficulty.note}.`}
          </p>
          <DifficultyOutcomeTable rows={view.difficultyOutcome} />
        </Section>

        {seeds && (
          <Section
            title="Seed funnel"
            aside={
              <a href="/api/drift/csv?chart=funnel" className="text-xs text-zinc-500 hover:text-zinc-900" download>
                CSV
              </a>
            }
          >
            <SeedFunnel funnel={seeds.funnel} run={seeds.run ? { policy: seeds.run.policy, createdAt: seeds.run.createdAt.toISOString() } : null} />
          </Section>
        )}
      </Suspense>
    </div>
  );
}
