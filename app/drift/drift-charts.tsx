'use client';

import Link from 'next/link';
import { useMemo, useState } from 'react';
import { CHART_INK, useColorScheme } from '@/app/_components/color-scheme.ts';
import { sharedRange } from './chart-align.ts';
import type { ChartSpec } from './chart-data.ts';
import { LineChart, type LineHighlight } from './line-chart.tsx';

export interface LegendLineage {
  id: string;
  name: string;
  axisPolicy: string;
  synthesiser: string;
  frontier: number | null;
  latestProbe: { number: number; passes: number; size: number } | null;
}

// Selected lineages get these, in order; a hovered one is drawn in the scheme's strongest ink.
const PALETTE = ['#e11d48', '#0d9488', '#ea580c', '#9333ea', '#ca8a04', '#0369a1'];

export function DriftCharts({
  charts,
  lineages,
  time,
  csvBase,
  single,
}: {
  charts: ChartSpec[];
  lineages: LegendLineage[];
  time: boolean;
  csvBase: string; // the filter's query string, for the CSV links
  single: boolean;
}) {
  const [hovered, setHovered] = useState<string | null>(null);
  const hoverColour = CHART_INK[useColorScheme()].emphasis;
  const [selected, setSelected] = useState<string[]>([]);
  const names = useMemo(() => new Map(lineages.map((l) => [l.id, l.name])), [lineages]);
  // Every chart on one x-range: the same generation or day sits at the same place in each.
  const xRange = useMemo(() => sharedRange(charts, time), [charts, time]);
  const highlight: LineHighlight = {
    hovered,
    selected,
    names,
    colourOf: (id) => {
      const i = selected.indexOf(id);
      return i >= 0 ? PALETTE[i % PALETTE.length]! : hoverColour;
    },
    onHover: setHovered,
    onToggle: (id) => setSelected((current) => (current.includes(id) ? current.filter((x) => x !== id) : [...current, id])),
  };
  const csv = (chart: string, part: 'lines' | 'band') => `/api/drift/csv?chart=${chart}&part=${part}${csvBase ? `&${csvBase}` : ''}`;

  return (
    <div className={single ? '' : 'grid gap-4 xl:grid-cols-[1fr_17rem]'}>
      <div className="grid gap-4 lg:grid-cols-2">
        {charts.map((chart) => (
          <section key={chart.id} className="rounded-lg border border-zinc-200 bg-white p-4 shadow-xs" data-testid="drift-chart" data-chart={chart.id}>
            <header className="mb-2 flex items-start justify-between gap-3">
              <div className="min-w-0">
                <h3 className="text-sm font-semibold text-zinc-900">{chart.title}</h3>
                <p className="text-xs text-zinc-500">{chart.subtitle}</p>
              </div>
              <div className="flex shrink-0 gap-1 text-[11px]">
                <a href={csv(chart.id, 'lines')} className="rounded border border-zinc-200 px-1.5 py-0.5 text-zinc-600 hover:bg-zinc-50" download>
                  CSV
                </a>
                {!single && (
                  <a
                    href={csv(chart.id, 'band')}
                    className="rounded border border-zinc-200 px-1.5 py-0.5 text-zinc-600 hover:bg-zinc-50"
                    download
                    title="median, quartiles and range per x"
                  >
                    bands
                  </a>
                )}
              </div>
            </header>
            <SeriesKey chart={chart} single={single} />
            <LineChart spec={chart} time={time} single={single} xRange={xRange} highlight={highlight} />
          </section>
        ))}
      </div>
      {!single && <Legend lineages={lineages} highlight={highlight} clear={() => setSelected([])} />}
    </div>
  );
}

function SeriesKey({ chart, single }: { chart: ChartSpec; single: boolean }) {
  return (
    <ul className="mb-1 flex flex-wrap gap-x-3 gap-y-0.5 text-[11px] text-zinc-600">
      {chart.series.map((s, i) => (
        <li key={s.metric} className="flex items-center gap-1.5">
          <span aria-hidden className="inline-block h-0.5 w-3.5 rounded" style={{ background: s.color }} />
          {single && i === 0 ? s.label : `${s.label}${i === 0 ? ' · median' : ''}`}
        </li>
      ))}
      {!single && chart.series[0]?.showBand && (
        <li className="flex items-center gap-1.5 text-zinc-500" data-testid="band">
          <span aria-hidden className="inline-block h-2.5 w-3.5 rounded-sm" style={{ background: chart.series[0].color, opacity: 0.25 }} />
          IQR, lighter: min–max
        </li>
      )}
      {chart.reference && (
        <li className="flex items-center gap-1.5 text-green-700">
          <span aria-hidden className="inline-block w-3.5 border-t-2 border-dashed border-green-600" />
          {chart.reference.label}
        </li>
      )}
      <li className="flex items-center gap-1.5 text-zinc-500">
        <span aria-hidden className="inline-flex gap-1">
          <span className="inline-block h-0.5 w-1.5 bg-zinc-400" />
          <span className="inline-block h-0.5 w-1.5 bg-zinc-400" />
        </span>
        gap: not measured
      </li>
    </ul>
  );
}

function Legend({ lineages, highlight, clear }: { lineages: LegendLineage[]; highlight: LineHighlight; clear: () => void }) {
  return (
    <aside
      className="flex max-h-[calc(3*300px)] flex-col rounded-lg border border-zinc-200 bg-white shadow-xs xl:sticky xl:top-4 xl:self-start"
      data-testid="drift-legend"
    >
      <div className="flex items-center justify-between border-b border-zinc-100 px-3 py-2">
        <h3 className="text-sm font-semibold" data-testid="legend-count">
          {lineages.length} {lineages.length === 1 ? 'lineage' : 'lineages'}
        </h3>
        {highlight.selected.length > 0 && (
          <button type="button" onClick={clear} className="text-xs text-zinc-500 hover:text-zinc-900">
            clear {highlight.selected.length}
          </button>
        )}
      </div>
      <p className="px-3 pt-2 text-[11px] text-zinc-500">Hover to trace a lineage in every chart; click to keep it.</p>
      <ul className="flex-1 overflow-y-auto px-1 py-1" aria-label="Lineages in the charts">
        {lineages.map((l) => {
          const on = highlight.selected.includes(l.id);
          return (
            <li
              key={l.id}
              data-testid="legend-row"
              onPointerEnter={() => highlight.onHover(l.id)}
              onPointerLeave={() => highlight.onHover(null)}
              className={`group flex items-center gap-2 rounded px-2 py-1 ${highlight.hovered === l.id ? 'bg-zinc-100' : ''}`}
            >
              <button
                type="button"
                aria-pressed={on}
                onClick={() => highlight.onToggle(l.id)}
                className="flex min-w-0 flex-1 items-center gap-2 text-left"
                title={`${l.axisPolicy} · ${l.synthesiser}`}
              >
                <span
                  aria-hidden
                  className="size-2.5 shrink-0 rounded-full border"
                  style={on ? { background: highlight.colourOf(l.id), borderColor: highlight.colourOf(l.id) } : { borderColor: 'var(--color-zinc-400)' }}
                />
                <span className="truncate text-xs text-zinc-800">{l.name}</span>
              </button>
              <span className="shrink-0 text-[11px] tabular-nums text-zinc-500" title="latest probe">
                {l.latestProbe ? `${l.latestProbe.passes}/${l.latestProbe.size}` : '–'}
              </span>
              <Link
                href={`/drift?lineage=${encodeURIComponent(l.id)}`}
                className="shrink-0 text-[11px] text-blue-700 opacity-0 group-hover:opacity-100 focus:opacity-100"
                aria-label={`Drift of ${l.name}`}
              >
                open
              </Link>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
