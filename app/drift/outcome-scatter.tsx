'use client';

// One lineage's estimated D against its probes' pass rate (dots) and mean turns (rings), drawn in
// the browser from the few numbers it needs: as a server component each scatter's SVG tree was
// sent twice, as HTML and again in the page's payload (127 of them at the paper's scale).
import type { WireOutcomePoints } from '@/lib/drift/index.ts';

// Plot area inside margins that hold the axes: D along the bottom, pass rate on the left (dots),
// mean turns on the right (rings).
const W = 280;
const H = 128;
const M = { left: 40, right: 40, top: 8, bottom: 32 };
const AXIS = 'var(--color-zinc-500)';
const TICK_FONT = 9;

function ticks(lo: number, hi: number): number[] {
  return lo === hi ? [lo] : [lo, (lo + hi) / 2, hi];
}

// Coordinates to a tenth of a pixel: finer draws nothing different, and the page holds a
// scatter per lineage (127 at the paper's scale).
const px = (v: number) => Math.round(v * 10) / 10;

// Each scatter's points are one path apiece for dots and rings, drawn by these markers at its
// vertices (the path itself has no stroke): two elements per scatter, not two per point.
const DOT = 'outcome-dot';
const RING = 'outcome-ring';

export function PointMarkers() {
  const marker = (id: string, circle: { fill: string; stroke?: string }) => (
    <marker id={id} markerUnits="userSpaceOnUse" markerWidth={6} markerHeight={6} refX={3} refY={3} overflow="visible">
      <circle cx={3} cy={3} r={2.5} {...circle} />
    </marker>
  );
  return (
    <svg width={0} height={0} aria-hidden className="absolute">
      <defs>
        {marker(DOT, { fill: 'var(--color-sky-600)' })}
        {marker(RING, { fill: 'none', stroke: 'var(--color-amber-600)' })}
      </defs>
    </svg>
  );
}

/** A path through the points, for markers to draw at. */
function markerPath(points: [number, number][]): string {
  return points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${px(x)} ${px(y)}`).join('');
}

function PointMarks({ points, marker }: { points: [number, number][]; marker: string }) {
  if (points.length === 0) return null;
  const url = `url(#${marker})`;
  return <path d={markerPath(points)} fill="none" stroke="none" markerStart={url} markerMid={url} markerEnd={url} />;
}

/** One lineage's scatter, from the points as GET /api/drift sends them: columns, not an object per point. */
export function OutcomeScatter({ points }: { points: WireOutcomePoints }) {
  const { ds, passRates, meanTurns } = points;
  const turns = meanTurns.flatMap((t) => (t === null ? [] : [t]));
  if (ds.length === 0) return null;
  const [dMin, dMax] = [Math.min(...ds), Math.max(...ds)];
  const tMax = Math.max(1, ...turns);
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const x = (d: number) => px(M.left + (dMax === dMin ? plotW / 2 : ((d - dMin) / (dMax - dMin)) * plotW));
  const yPass = (rate: number) => px(M.top + (1 - rate) * plotH);
  const yTurns = (t: number) => px(M.top + (1 - t / tMax) * plotH);
  const bottom = M.top + plotH;
  const xTicks = ticks(dMin, dMax);
  const turnTicks = ticks(0, tMax);
  const tickMarks = [
    ...xTicks.map((d) => `M${x(d)} ${bottom}v3`),
    ...[0, 0.5, 1].map((rate) => `M${M.left - 3} ${yPass(rate)}h3`),
    ...turnTicks.map((t) => `M${M.left + plotW} ${yTurns(t)}h3`),
  ].join('');
  return (
    <svg
      width={W}
      height={H}
      role="img"
      aria-label={`estimated D (x, ${dMin.toFixed(2)} to ${dMax.toFixed(2)}) against pass rate (dots, %) and mean turns (rings), ${ds.length} generations`}
      data-testid="outcome-scatter"
    >
      <rect x={M.left} y={M.top} width={plotW} height={plotH} fill="none" stroke="var(--color-zinc-200)" />
      <path d={tickMarks} stroke={AXIS} />
      <g fontSize={TICK_FONT} fill={AXIS} className="tabular-nums">
        {xTicks.map((d) => (
          <text key={`x${d}`} x={x(d)} y={bottom + 12} textAnchor="middle">
            {d.toFixed(2)}
          </text>
        ))}
        {[0, 0.5, 1].map((rate) => (
          <text key={`p${rate}`} x={M.left - 5} y={yPass(rate) + 3} textAnchor="end">
            {rate * 100}%
          </text>
        ))}
        {turnTicks.map((t) => (
          <text key={`t${t}`} x={M.left + plotW + 5} y={yTurns(t) + 3} textAnchor="start">
            {Number.isInteger(t) ? t : t.toFixed(1)}
          </text>
        ))}
        <text x={M.left + plotW / 2} y={H - 4} textAnchor="middle" fontSize={10}>
          estimated D (off-policy)
        </text>
        <text transform={`translate(10 ${M.top + plotH / 2}) rotate(-90)`} textAnchor="middle" fontSize={10} fill="var(--color-sky-600)">
          pass rate • (%)
        </text>
        <text transform={`translate(${W - 6} ${M.top + plotH / 2}) rotate(90)`} textAnchor="middle" fontSize={10} fill="var(--color-amber-600)">
          mean turns ○
        </text>
      </g>
      <PointMarks marker={DOT} points={ds.flatMap((d, i) => (passRates[i] === null ? [] : [[x(d), yPass(passRates[i]!)] as [number, number]]))} />
      <PointMarks marker={RING} points={ds.flatMap((d, i) => (meanTurns[i] === null ? [] : [[x(d), yTurns(meanTurns[i]!)] as [number, number]]))} />
    </svg>
  );
}
