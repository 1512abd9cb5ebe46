import type { PassRatePoint } from '@/lib/dashboard/index.ts';

const BAR_WIDTH = 5;
const BAR_GAP = 2;
const HEIGHT = 24;
// The newest generations only: a long lineage still fits its table cell.
const MAX_BARS = 24;

function barColour(rate: number): string {
  if (rate >= 0.999) return 'var(--color-emerald-500)';
  if (rate >= 0.5) return 'var(--color-amber-500)';
  return 'var(--color-red-500)';
}

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

// One bar per generation, as tall as the share of its validator runs that passed.
export function PassRateSparkline({ points }: { points: PassRatePoint[] }) {
  if (points.length === 0) return <span className="text-xs text-zinc-400">no runs</span>;
  const shown = points.slice(-MAX_BARS);
  const rated = shown.filter((p) => p.rate !== null);
  const mean = rated.length ? rated.reduce((sum, p) => sum + (p.rate ?? 0), 0) / rated.length : null;
  const label = `Validator pass rate by generation${mean === null ? '' : `, mean ${percent(mean)}`}: ${shown
    .map((p) => `G${p.number} ${p.rate === null ? 'no runs' : percent(p.rate)}`)
    .join(', ')}`;
  return (
    <span className="inline-flex items-center gap-2">
      <svg role="img" aria-label={label} width={shown.length * (BAR_WIDTH + BAR_GAP) - BAR_GAP} height={HEIGHT} className="shrink-0">
        {shown.map((point, i) => {
          const x = i * (BAR_WIDTH + BAR_GAP);
          if (point.rate === null) return <rect key={i} x={x} y={HEIGHT - 2} width={BAR_WIDTH} height={2} fill="var(--color-zinc-300)" />;
          const height = Math.max(2, point.rate * HEIGHT);
          return (
            <rect key={i} x={x} y={HEIGHT - height} width={BAR_WIDTH} height={height} rx={1} fill={barColour(point.rate)}>
              <title>{`G${point.number} (${point.state}): ${percent(point.rate)} of ${point.runs} validator runs passed`}</title>
            </rect>
          );
        })}
      </svg>
      {mean !== null && <span className="text-xs tabular-nums text-zinc-500">{percent(mean)}</span>}
    </span>
  );
}
