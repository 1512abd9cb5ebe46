'use client';

import Link from 'next/link';
import { useEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import { bandPath, formatDay, formatValue, integerTicks, linePath, niceTicks, scale, timeTicks } from './chart-geometry.ts';
import type { ChartSpec, ClientLine } from './chart-data.ts';

const WIDTH = 560;
const HEIGHT = 236;
const MARGIN = { top: 14, right: 14, bottom: 26, left: 46 };
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;
const AXIS_COLOURS: Record<string, string> = { length: '#0284c7', scenario: '#d97706', skill: '#059669' };
// Individual lines stay quiet until hovered or selected; beyond this many they are left out.
const MAX_BACKGROUND_LINES = 300;

export interface LineHighlight {
  hovered: string | null;
  selected: string[];
  colourOf: (lineageId: string) => string;
  names: Map<string, string>;
  onHover: (lineageId: string | null) => void;
  onToggle: (lineageId: string) => void;
}

function extent(spec: ChartSpec): { x: [number, number]; y: [number, number] } | null {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const s of spec.series) {
    xs.push(...s.band.xs);
    ys.push(...(s.showBand ? [...s.band.min, ...s.band.max] : s.band.median));
  }
  for (const line of spec.lines) {
    xs.push(...line.xs);
    ys.push(...line.ys);
  }
  if (xs.length === 0) return null;
  let y0 = spec.yMin ?? Math.min(...ys);
  let y1 = spec.yMax ?? Math.max(...ys);
  if (spec.reference) {
    y0 = Math.min(y0, spec.reference.y);
    y1 = Math.max(y1, spec.reference.y);
  }
  if (y0 === y1) [y0, y1] = [y0 - 1, y1 + 1];
  return { x: [Math.min(...xs), Math.max(...xs)], y: [y0, y1] };
}

function nearestIndex(xs: readonly number[], x: number): number {
  let best = 0;
  for (let i = 1; i < xs.length; i += 1) if (Math.abs(xs[i]! - x) < Math.abs(xs[best]! - x)) best = i;
  return best;
}

function valueAt(line: ClientLine, x: number, time: boolean): number | null {
  if (!time) {
    const i = line.xs.indexOf(x);
    return i >= 0 ? line.ys[i]! : null;
  }
  let value: number | null = null;
  for (let i = 0; i < line.xs.length && line.xs[i]! <= x; i += 1) value = line.ys[i]!;
  return value;
}

// Marks the first chart drawn and hydrated, for the time-to-first-chart measurement.
function markReady(): void {
  if (performance.getEntriesByName('drift-chart-ready').length === 0) performance.mark('drift-chart-ready');
}

export function LineChart({ spec, time, highlight }: { spec: ChartSpec; time: boolean; highlight: LineHighlight }) {
  const [cursor, setCursor] = useState<number | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  useEffect(markReady, []);
  const bounds = useMemo(() => extent(spec), [spec]);
  const primary = spec.series[0]!;

  if (!bounds) {
    return (
      <div className="grid h-[236px] place-items-center rounded-md bg-zinc-50 text-sm text-zinc-500" data-testid="chart-empty">
        No data for these lineages.
      </div>
    );
  }
  const yTicks = niceTicks(bounds.y[0], bounds.y[1], 5);
  const yDomain: [number, number] = [Math.min(bounds.y[0], yTicks[0]!), Math.max(bounds.y[1], yTicks[yTicks.length - 1]!)];
  const sx = scale(bounds.x, [MARGIN.left, MARGIN.left + PLOT_W]);
  const sy = scale(yDomain, [MARGIN.top + PLOT_H, MARGIN.top]);
  const xTicks = time ? timeTicks(bounds.x[0], bounds.x[1]) : integerTicks(bounds.x[0], bounds.x[1]);
  const single = spec.lines.length === 1 && Boolean(spec.lines[0]?.ids);
  const emphasised = new Set([...highlight.selected, ...(highlight.hovered ? [highlight.hovered] : [])]);

  const cursorX = cursor === null || primary.band.xs.length === 0 ? null : primary.band.xs[nearestIndex(primary.band.xs, cursor)]!;

  function onMove(event: PointerEvent<SVGSVGElement>) {
    const svg = svgRef.current;
    if (!svg) return;
    const box = svg.getBoundingClientRect();
    const px = ((event.clientX - box.left) / box.width) * WIDTH;
    if (px < MARGIN.left || px > MARGIN.left + PLOT_W) return setCursor(null);
    const x = bounds!.x[0] + ((px - MARGIN.left) / PLOT_W) * (bounds!.x[1] - bounds!.x[0]);
    setCursor(x);
  }

  const tooltip = cursorX === null ? null : tooltipRows(spec, cursorX, time, emphasised, highlight);
  const tooltipLeft = cursorX !== null && sx(cursorX) > MARGIN.left + PLOT_W / 2;

  return (
    <svg
      ref={svgRef}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="block h-auto w-full select-none"
      role="img"
      aria-label={`${spec.title}: median ${primary.label} by ${time ? 'time' : 'generation'}`}
      onPointerMove={onMove}
      onPointerLeave={() => setCursor(null)}
      data-testid="chart-svg"
    >
      {yTicks.map((t) => (
        <g key={`y${t}`}>
          <line x1={MARGIN.left} x2={MARGIN.left + PLOT_W} y1={sy(t)} y2={sy(t)} stroke="#e4e4e7" strokeWidth={1} />
          <text x={MARGIN.left - 6} y={sy(t)} dy="0.32em" textAnchor="end" className="fill-zinc-500 text-[10px] tabular-nums">
            {formatValue(t, spec.format)}
          </text>
        </g>
      ))}
      {xTicks.map((t) => (
        <text key={`x${t}`} x={sx(t)} y={HEIGHT - 8} textAnchor="middle" className="fill-zinc-500 text-[10px] tabular-nums">
          {time ? formatDay(t) : t}
        </text>
      ))}
      <line x1={MARGIN.left} x2={MARGIN.left + PLOT_W} y1={MARGIN.top + PLOT_H} y2={MARGIN.top + PLOT_H} stroke="#a1a1aa" strokeWidth={1} />

      {spec.series.map((s) =>
        s.showBand && s.band.xs.length > 1 ? (
          <g key={`band-${s.metric}`} data-testid="band">
            <path d={bandPath(s.band.xs, s.band.max, s.band.min, sx, sy)} fill={s.color} fillOpacity={0.07} />
            <path d={bandPath(s.band.xs, s.band.q3, s.band.q1, sx, sy)} fill={s.color} fillOpacity={0.16} />
          </g>
        ) : null,
      )}

      {!single && spec.lines.length <= MAX_BACKGROUND_LINES && (
        <g>
          {spec.lines.map((line) =>
            emphasised.has(line.lineageId) ? null : (
              <path key={line.lineageId} d={linePath(line.xs, line.ys, sx, sy)} fill="none" stroke="#71717a" strokeOpacity={0.13} strokeWidth={1} />
            ),
          )}
        </g>
      )}

      {spec.reference && (
        <g>
          <line x1={MARGIN.left} x2={MARGIN.left + PLOT_W} y1={sy(spec.reference.y)} y2={sy(spec.reference.y)} stroke="#16a34a" strokeDasharray="5 4" strokeWidth={1.25} />
          <text x={MARGIN.left + PLOT_W - 4} y={sy(spec.reference.y) - 5} textAnchor="end" className="fill-green-700 text-[10px] font-medium">
            {spec.reference.label}
          </text>
        </g>
      )}

      {/* One lineage: its own line is drawn below with points; the other series are its values too. */}
      {spec.series.map((s, i) =>
        single && i === 0 ? null : (
          <path
            key={`median-${s.metric}`}
            d={linePath(s.band.xs, s.band.median, sx, sy)}
            fill="none"
            stroke={s.color}
            strokeWidth={i === 0 ? 2.25 : 1.75}
            strokeLinejoin="round"
            data-testid={i === 0 ? 'median-path' : undefined}
          />
        ),
      )}

      {spec.lines
        .filter((line) => single || emphasised.has(line.lineageId))
        .map((line) => (
          <g key={`hl-${line.lineageId}`}>
            <path
              d={linePath(line.xs, line.ys, sx, sy)}
              fill="none"
              stroke={single ? primary.color : highlight.colourOf(line.lineageId)}
              strokeWidth={2.25}
              strokeLinejoin="round"
              data-testid={single ? 'median-path' : 'highlighted-line'}
            />
            {single &&
              line.xs.map((x, i) => {
                const id = line.ids?.[i];
                const dot = <circle cx={sx(x)} cy={sy(line.ys[i]!)} r={3.5} fill={AXIS_COLOURS[line.axes?.[i] ?? ''] ?? '#52525b'} stroke="white" strokeWidth={1.25} />;
                return id ? (
                  <Link key={i} href={`/generations/${id}`} aria-label={`Generation ${line.numbers?.[i] ?? ''}`}>
                    {dot}
                  </Link>
                ) : (
                  <g key={i}>{dot}</g>
                );
              })}
          </g>
        ))}

      {/* Wide transparent strokes: hovering a lineage's line names it, a click selects it. */}
      {!single && spec.lines.length <= MAX_BACKGROUND_LINES && (
        <g>
          {spec.lines.map((line) => (
            <path
              key={`hit-${line.lineageId}`}
              d={linePath(line.xs, line.ys, sx, sy)}
              fill="none"
              stroke="transparent"
              strokeWidth={7}
              className="cursor-pointer"
              onPointerEnter={() => highlight.onHover(line.lineageId)}
              onPointerLeave={() => highlight.onHover(null)}
              onClick={() => highlight.onToggle(line.lineageId)}
            />
          ))}
        </g>
      )}

      {cursorX !== null && tooltip && (
        <g pointerEvents="none">
          <line x1={sx(cursorX)} x2={sx(cursorX)} y1={MARGIN.top} y2={MARGIN.top + PLOT_H} stroke="#52525b" strokeDasharray="2 3" />
          <g transform={`translate(${tooltipLeft ? sx(cursorX) - 8 - tooltip.width : sx(cursorX) + 8},${MARGIN.top + 4})`}>
            <rect width={tooltip.width} height={16 + tooltip.rows.length * 14} rx={4} fill="white" stroke="#d4d4d8" />
            <text x={8} y={13} className="fill-zinc-900 text-[10px] font-semibold">
              {time ? formatDay(cursorX) : `Generation ${cursorX}`}
            </text>
            {tooltip.rows.map((row, i) => (
              <g key={i} transform={`translate(8,${26 + i * 14})`}>
                <rect y={-7} width={8} height={3} fill={row.color} />
                <text x={12} y={-3} className="fill-zinc-700 text-[10px] tabular-nums">
                  {row.text}
                </text>
              </g>
            ))}
          </g>
        </g>
      )}
    </svg>
  );
}

function tooltipRows(spec: ChartSpec, x: number, time: boolean, emphasised: Set<string>, highlight: LineHighlight) {
  const rows: { color: string; text: string }[] = [];
  for (const s of spec.series) {
    const i = s.band.xs.indexOf(x);
    if (i < 0) continue;
    const f = (v: number) => formatValue(v, spec.format);
    rows.push({
      color: s.color,
      text:
        s.band.n[i] === 1
          ? `${s.label} ${f(s.band.median[i]!)}`
          : `${s.label} ${f(s.band.median[i]!)} (IQR ${f(s.band.q1[i]!)}–${f(s.band.q3[i]!)}, n=${s.band.n[i]})`,
    });
  }
  for (const line of spec.lines) {
    if (!emphasised.has(line.lineageId)) continue;
    const value = valueAt(line, x, time);
    if (value !== null) rows.push({ color: highlight.colourOf(line.lineageId), text: `${highlight.names.get(line.lineageId) ?? line.lineageId} ${formatValue(value, spec.format)}` });
  }
  const width = Math.max(110, ...rows.map((r) => r.text.length * 5.3 + 26));
  return rows.length ? { rows, width } : null;
}
