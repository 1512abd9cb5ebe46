'use client';

// Pass rate over generations, one line per (policy, checkpoint), overlaid on one uPlot chart.
// The legend names each series with its policy, version and sample size, shows the value and
// rollouts under the cursor, and a click on a legend entry hides or shows that series. Dragging
// across the plot zooms the generation axis; "Reset zoom" returns to every generation.
import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { checkpointSeriesLabel, type CheckpointSeries } from '@/lib/drift/browser.ts';

const HEIGHT = 280;
const PALETTE = ['#0284c7', '#d97706', '#059669', '#7c3aed', '#dc2626', '#0d9488', '#db2777', '#65a30d'];
const AXIS = {
  stroke: '#71717a',
  grid: { stroke: 'rgba(161,161,170,0.3)', width: 1 },
  ticks: { stroke: '#a1a1aa', width: 1 },
  font: '10px system-ui, sans-serif',
  labelFont: '11px system-ui, sans-serif',
};

interface Aligned {
  generations: number[];
  rates: (number | null)[][]; // per series, per generation
  rollouts: (number | null)[][];
}

function align(series: CheckpointSeries[]): Aligned {
  const generations = [...new Set(series.flatMap((s) => s.points.map((p) => p.generation)))].sort((a, b) => a - b);
  const column = (s: CheckpointSeries, pick: (p: CheckpointSeries['points'][number]) => number) => {
    const at = new Map(s.points.map((p) => [p.generation, pick(p)]));
    return generations.map((g) => at.get(g) ?? null);
  };
  return { generations, rates: series.map((s) => column(s, (p) => p.passRate)), rollouts: series.map((s) => column(s, (p) => p.rollouts)) };
}

function options(series: CheckpointSeries[], aligned: Aligned, width: number, onZoom: (zoomed: boolean) => void): uPlot.Options {
  const full = [aligned.generations[0]!, aligned.generations.at(-1)!];
  return {
    width,
    height: HEIGHT,
    legend: { show: true, live: true },
    scales: { x: { time: false }, y: { range: [0, 1] } },
    axes: [
      { ...AXIS, label: 'generation (0 = seed)', incrs: [1, 2, 5, 10, 20, 50, 100], values: (_u, splits) => splits.map(String) },
      { ...AXIS, label: 'pass rate (%)', size: 52, values: (_u, splits) => splits.map((v) => `${Math.round(v * 100)}%`) },
    ],
    series: [
      { label: 'Generation', value: (_u, v) => (v === null ? '–' : String(v)) },
      ...series.map((s, i): uPlot.Series => ({
        label: checkpointSeriesLabel(s),
        stroke: PALETTE[i % PALETTE.length],
        width: 1.75,
        points: { show: true, size: 5, fill: PALETTE[i % PALETTE.length] },
        value: (_u, v, _seriesIdx, idx) => (v === null || idx === null ? '–' : `${(v * 100).toFixed(1)}% (n=${aligned.rollouts[i]?.[idx] ?? 0} rollouts)`),
      })),
    ],
    cursor: { drag: { x: true, y: false, setScale: true } },
    hooks: {
      setScale: [
        (u, key) => {
          if (key !== 'x') return;
          const { min, max } = u.scales.x ?? {};
          onZoom(min !== undefined && max !== undefined && (min > full[0]! || max < full[1]!));
        },
      ],
    },
  };
}

export function CheckpointOverlay({ series }: { series: CheckpointSeries[] }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const [zoomed, setZoomed] = useState(false);
  const aligned = useMemo(() => align(series), [series]);

  useEffect(() => {
    const el = box.current;
    if (!el || aligned.generations.length === 0) return;
    const u = new uPlot(options(series, aligned, el.clientWidth, setZoomed), [aligned.generations, ...aligned.rates] as uPlot.AlignedData, el);
    chart.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: el.clientWidth, height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      chart.current = null;
    };
  }, [series, aligned]);

  if (aligned.generations.length === 0) return <p className="text-sm text-zinc-500">No probed generation yet.</p>;
  const resetZoom = () => chart.current?.setScale('x', { min: aligned.generations[0]!, max: aligned.generations.at(-1)! });
  return (
    <div data-testid="checkpoint-overlay">
      <p className="mb-2 flex items-center justify-between gap-4 text-xs text-zinc-500">
        <span>
          Pooled passes / rollouts per generation, one line per policy and checkpoint. Click a legend entry to hide or show it; drag across the plot to zoom.
        </span>
        <button
          type="button"
          onClick={resetZoom}
          disabled={!zoomed}
          className="shrink-0 rounded border border-zinc-300 px-2 py-1 text-xs text-zinc-700 hover:bg-zinc-100 disabled:opacity-40"
        >
          Reset zoom
        </button>
      </p>
      <div
        ref={box}
        role="img"
        aria-label="pass rate (%) by generation, per policy and checkpoint"
        data-testid="checkpoint-overlay-plot"
        className="w-full text-xs"
      />
    </div>
  );
}
