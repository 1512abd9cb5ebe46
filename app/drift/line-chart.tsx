'use client';

// One drift chart drawn by uPlot on a canvas: the median (and, across lineages, its quartile and
// min–max bands) and every lineage's own line, on the page's shared x-range. The cursor is
// synced across the page's charts (uPlot's cursor sync), and the readout under each chart says
// what is under it. Hovering a line near the cursor names its lineage; a click keeps it.
import Link from 'next/link';
import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CHART_INK, useColorScheme, type ChartInk } from '@/app/_components/color-scheme.ts';
import { alignChart, type AlignedChart } from './chart-align.ts';
import type { ChartSpec } from './chart-data.ts';
import { formatDay, formatMoment, formatValue } from './chart-format.ts';

const HEIGHT = 250;
const AXIS_COLOURS: Record<string, string> = { length: 'var(--color-sky-600)', scenario: 'var(--color-amber-600)', skill: 'var(--color-emerald-600)' };
const REFERENCE_COLOUR = '#16a34a';
// Individual lines stay quiet until hovered or selected; beyond this many they are left out.
const MAX_BACKGROUND_LINES = 300;
export const CURSOR_SYNC_KEY = 'drift';

export interface LineHighlight {
  hovered: string | null;
  selected: string[];
  colourOf: (lineageId: string) => string;
  names: Map<string, string>;
  onHover: (lineageId: string | null) => void;
  onToggle: (lineageId: string) => void;
}

// Marks the first chart drawn and hydrated, for the time-to-first-chart measurement.
function markReady(): void {
  if (performance.getEntriesByName('drift-chart-ready').length === 0) performance.mark('drift-chart-ready');
}

// What each uPlot series (after the x series, index 0) is.
type SeriesRole = { kind: 'median'; index: number } | { kind: 'band' } | { kind: 'line'; lineageId: string };

interface Plan {
  aligned: AlignedChart;
  roles: SeriesRole[];
  data: uPlot.AlignedData;
}

function plan(spec: ChartSpec, time: boolean, single: boolean): Plan {
  const aligned = alignChart(spec, time);
  const roles: SeriesRole[] = [];
  const columns: (number | null | undefined)[][] = [];
  const drawLines = single || spec.lines.length <= MAX_BACKGROUND_LINES;
  for (const edge of ['max', 'min', 'q3', 'q1'] as const) {
    const values = aligned.bands[edge];
    if (!values || single) continue;
    roles.push({ kind: 'band' });
    columns.push(values);
  }
  if (drawLines) {
    spec.lines.forEach((line, i) => {
      roles.push({ kind: 'line', lineageId: line.lineageId });
      columns.push(aligned.lines[i]!);
    });
  }
  // One lineage: its own line (with points) stands for the first series.
  spec.series.forEach((_, i) => {
    if (single && i === 0) return;
    roles.push({ kind: 'median', index: i });
    columns.push(aligned.medians[i]!);
  });
  return { aligned, roles, data: [aligned.xs, ...columns] as uPlot.AlignedData };
}

interface Props {
  spec: ChartSpec;
  time: boolean;
  single: boolean;
  xRange: [number, number] | null;
  highlight: LineHighlight;
}

export function LineChart({ spec, time, single, xRange, highlight }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const highlightRef = useRef(highlight);
  // The chart's click handler reads the latest highlight without rebuilding the chart.
  useEffect(() => {
    highlightRef.current = highlight;
  }, [highlight]);
  const [cursorIdx, setCursorIdx] = useState<number | null>(null);
  const drawn = useMemo(() => plan(spec, time, single), [spec, time, single]);
  const ink = CHART_INK[useColorScheme()];

  useEffect(() => {
    const el = box.current;
    if (!el || drawn.aligned.xs.length === 0) return;
    const u = new uPlot(options(spec, drawn, { time, single, xRange, width: el.clientWidth, ink, highlightRef, onCursor: setCursorIdx }), drawn.data, el);
    chart.current = u;
    // A click on the plot keeps (or lets go of) the lineage whose line is under the cursor.
    const onClick = () => {
      const hovered = highlightRef.current.hovered;
      if (hovered) highlightRef.current.onToggle(hovered);
    };
    u.over.addEventListener('click', onClick);
    const resize = new ResizeObserver(() => u.setSize({ width: el.clientWidth, height: HEIGHT }));
    resize.observe(el);
    markReady();
    return () => {
      resize.disconnect();
      u.over.removeEventListener('click', onClick);
      u.destroy();
      chart.current = null;
    };
  }, [spec, drawn, time, single, xRange, ink]);

  // Emphasis changes only restyle the lines: no new chart, no new data.
  const { hovered, selected } = highlight;
  useEffect(() => {
    const u = chart.current;
    if (!u) return;
    const emphasised = new Set([...selected, ...(hovered ? [hovered] : [])]);
    drawn.roles.forEach((role, i) => {
      if (role.kind === 'line' && !single) u.series[i + 1]!.width = emphasised.has(role.lineageId) ? 2.25 : 1;
    });
    u.redraw(false);
  }, [hovered, selected, drawn, single]);

  if (drawn.aligned.xs.length === 0) {
    return (
      <div className="grid h-[250px] place-items-center rounded-md bg-zinc-50 text-sm text-zinc-500" data-testid="chart-empty">
        No data for these lineages.
      </div>
    );
  }
  const primary = single ? spec.lines[0]?.ys : spec.series[0]?.band.median;
  const span = xRange ?? [drawn.aligned.xs[0]!, drawn.aligned.xs.at(-1)!];
  return (
    <div>
      <div
        ref={box}
        role="img"
        aria-label={`${spec.title}: ${spec.yLabel} by ${time ? 'time' : 'generation'}`}
        data-testid="chart-plot"
        data-primary-values={primary?.join(',')}
        className="w-full"
      />
      {time && (
        <p className="flex justify-between text-[11px] tabular-nums text-zinc-500" data-testid="time-range">
          <span>{formatDay(span[0])}</span>
          <span>UTC</span>
          <span>{formatDay(span[1])}</span>
        </p>
      )}
      <Readout spec={spec} aligned={drawn.aligned} idx={cursorIdx} time={time} highlight={highlight} />
      {single && spec.lines[0]?.ids && <GenerationLinks spec={spec} />}
    </div>
  );
}

interface OptionContext {
  time: boolean;
  single: boolean;
  xRange: [number, number] | null;
  width: number;
  ink: ChartInk;
  highlightRef: { current: LineHighlight };
  onCursor: (idx: number | null) => void;
}

function options(spec: ChartSpec, drawn: Plan, ctx: OptionContext): uPlot.Options {
  const primary = spec.series[0]!;
  const bandFill = (alpha: number) =>
    `${primary.color}${Math.round(alpha * 255)
      .toString(16)
      .padStart(2, '0')}`;
  const series: uPlot.Series[] = [{}];
  drawn.roles.forEach((role) => {
    if (role.kind === 'band') series.push({ stroke: 'transparent', points: { show: false } });
    else if (role.kind === 'median') {
      const s = spec.series[role.index]!;
      series.push({ stroke: s.color, width: role.index === 0 ? 2.25 : 1.75, points: { show: true, size: 4, fill: s.color } });
    } else {
      const lineageId = role.lineageId;
      series.push({
        stroke: ctx.single ? primary.color : () => lineStroke(ctx.highlightRef.current, lineageId, ctx.ink.quiet),
        width: ctx.single ? 2.25 : 1,
        points: { show: ctx.single, size: 6, fill: primary.color },
      });
    }
  });
  // Bands between max and min (lighter) and q3 and q1, as series 1–4 when drawn.
  const bands: uPlot.Band[] =
    drawn.roles[0]?.kind === 'band'
      ? [
          { series: [1, 2], fill: bandFill(0.08) },
          { series: [3, 4], fill: bandFill(0.18) },
        ]
      : [];
  const yRange = (_u: uPlot, min: number, max: number): uPlot.Range.MinMax => {
    let lo = spec.yMin ?? min;
    let hi = spec.yMax ?? max;
    if (spec.reference) [lo, hi] = [Math.min(lo, spec.reference.y), Math.max(hi, spec.reference.y)];
    return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
  };
  const axis = {
    stroke: ctx.ink.axis,
    grid: { stroke: ctx.ink.grid, width: 1 },
    ticks: { stroke: ctx.ink.ticks, width: 1 },
    font: '10px system-ui, sans-serif',
    labelFont: '11px system-ui, sans-serif',
  };
  return {
    width: ctx.width,
    height: HEIGHT,
    ms: 1,
    tzDate: (ts) => uPlot.tzDate(new Date(ts), 'Etc/UTC'),
    legend: { show: false },
    scales: {
      x: { time: ctx.time, range: ctx.xRange ? () => ctx.xRange! : undefined },
      y: { range: yRange },
    },
    axes: [
      {
        ...axis,
        label: ctx.time ? 'time (UTC)' : 'generation (0 = seed)',
        ...(ctx.time ? {} : { incrs: [1, 2, 5, 10, 20, 50, 100], values: (_u: uPlot, splits: number[]) => splits.map(String) }),
      },
      { ...axis, label: spec.yLabel, size: 52, values: (_u: uPlot, splits: number[]) => splits.map((v) => formatValue(v, spec.format)) },
    ],
    series,
    bands,
    cursor: {
      sync: { key: CURSOR_SYNC_KEY, setSeries: false },
      drag: { x: false, y: false },
      points: { show: false },
      focus: { prox: ctx.single ? -1 : 6 },
    },
    focus: { alpha: 1 },
    hooks: {
      setCursor: [(u) => ctx.onCursor(u.cursor.idx ?? null)],
      setSeries: [
        (_u, seriesIdx) => {
          const role = seriesIdx === null ? undefined : drawn.roles[seriesIdx - 1];
          ctx.highlightRef.current.onHover(role?.kind === 'line' ? role.lineageId : null);
        },
      ],
      draw: [(u) => drawReference(u, spec)],
    },
  };
}

function lineStroke(highlight: LineHighlight, lineageId: string, quiet: string): string {
  const on = highlight.hovered === lineageId || highlight.selected.includes(lineageId);
  return on ? highlight.colourOf(lineageId) : quiet;
}

// The release bar: a dashed horizontal line across the plot.
function drawReference(u: uPlot, spec: ChartSpec): void {
  if (!spec.reference) return;
  const y = u.valToPos(spec.reference.y, 'y', true);
  const { ctx } = u;
  ctx.save();
  ctx.strokeStyle = REFERENCE_COLOUR;
  ctx.lineWidth = 1.25 * uPlot.pxRatio;
  ctx.setLineDash([5 * uPlot.pxRatio, 4 * uPlot.pxRatio]);
  ctx.beginPath();
  ctx.moveTo(u.bbox.left, y);
  ctx.lineTo(u.bbox.left + u.bbox.width, y);
  ctx.stroke();
  ctx.restore();
}

// What is under the cursor (synced across charts), and the lineages traced in every chart.
function Readout({
  spec,
  aligned,
  idx,
  time,
  highlight,
}: {
  spec: ChartSpec;
  aligned: AlignedChart;
  idx: number | null;
  time: boolean;
  highlight: LineHighlight;
}) {
  const x = idx === null ? null : aligned.xs[idx];
  const f = (v: number) => formatValue(v, spec.format);
  const traced = [...new Set([...highlight.selected, ...(highlight.hovered ? [highlight.hovered] : [])])];
  const rows: { colour: string; text: string }[] = [];
  if (x !== undefined && x !== null) {
    spec.series.forEach((s) => {
      const i = s.band.xs.indexOf(x);
      if (i < 0) return;
      const n = s.band.n[i]!;
      rows.push({
        colour: s.color,
        text:
          n === 1
            ? `${s.label.split(' · ')[0]} ${f(s.band.median[i]!)}`
            : `${s.label.split(' · ')[0]} ${f(s.band.median[i]!)} (IQR ${f(s.band.q1[i]!)}–${f(s.band.q3[i]!)}, n=${n})`,
      });
    });
  }
  return (
    <div className="mt-1 min-h-9 text-[11px] leading-4 text-zinc-600" aria-live="off" data-testid="chart-readout">
      <p className="tabular-nums">
        <span className="font-semibold text-zinc-800">
          {x === null || x === undefined ? (time ? 'Hover for a time' : 'Hover for a generation') : time ? formatMoment(x) : `Generation ${x}`}
        </span>
        {rows.map((row, i) => (
          <span key={i} className="ml-2 inline-flex items-center gap-1">
            <span aria-hidden className="inline-block h-0.5 w-2.5" style={{ background: row.colour }} />
            {row.text}
          </span>
        ))}
        {x !== null && x !== undefined && rows.length === 0 && <span className="ml-2 text-zinc-400">not measured</span>}
      </p>
      {traced.length > 0 && (
        <ul className="flex flex-wrap gap-x-3">
          {traced.map((id) => {
            const lineIndex = spec.lines.findIndex((l) => l.lineageId === id);
            const value = lineIndex < 0 || idx === null ? undefined : aligned.lines[lineIndex]![idx];
            return (
              <li key={id} data-testid="highlighted-line" className="inline-flex items-center gap-1 tabular-nums">
                <span aria-hidden className="inline-block h-0.5 w-2.5" style={{ background: highlight.colourOf(id) }} />
                {highlight.names.get(id) ?? id}
                {lineIndex < 0 ? ' (no values)' : typeof value === 'number' ? ` ${f(value)}` : ''}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

// One lineage: its generations as links, coloured by the axis each took.
function GenerationLinks({ spec }: { spec: ChartSpec }) {
  const line = spec.lines[0]!;
  return (
    <ul className="mt-1 flex flex-wrap gap-1" aria-label="Generations in this chart">
      {line.xs.map((_, i) => {
        const id = line.ids?.[i];
        const number = line.numbers?.[i];
        if (!id) return null;
        return (
          <li key={id}>
            <Link
              href={`/generations/${id}`}
              aria-label={`Generation ${number ?? ''}`}
              className="inline-grid size-5 place-items-center rounded-full text-[10px] font-medium text-white hover:ring-2 hover:ring-zinc-400"
              style={{ background: AXIS_COLOURS[line.axes?.[i] ?? ''] ?? 'var(--color-zinc-600)' }}
            >
              {number}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
