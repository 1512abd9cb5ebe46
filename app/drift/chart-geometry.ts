// Scales, ticks and SVG path strings for the hand-written drift charts.

export type ValueFormat = 'percent' | 'number' | 'integer';

/** Round, evenly spaced ticks covering [min, max] (about `count` of them). */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) return [min];
  const raw = (max - min) / Math.max(1, count - 1);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const first = Math.floor(min / step) * step;
  const ticks: number[] = [];
  for (let v = first; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toFixed(10)));
  if (ticks[ticks.length - 1]! < max) ticks.push(Number((ticks[ticks.length - 1]! + step).toFixed(10)));
  return ticks;
}

/** Whole-number ticks for generation numbers. */
export function integerTicks(min: number, max: number, count = 8): number[] {
  const step = [1, 2, 5, 10, 20, 50].find((s) => (max - min) / s <= count) ?? 100;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max; v += step) ticks.push(v);
  return ticks;
}

const DAY = 86_400_000;

/** Midnight (UTC) ticks, every 1, 2, 7, 14 or 30 days, for time axes. */
export function timeTicks(min: number, max: number, count = 6): number[] {
  const stepDays = [1, 2, 7, 14, 30, 60].find((d) => (max - min) / (d * DAY) <= count) ?? 90;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / DAY) * DAY; v <= max; v += stepDays * DAY) ticks.push(v);
  return ticks;
}

export function scale(domain: [number, number], range: [number, number]): (v: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  return (v) => r0 + ((v - d0) / span) * (r1 - r0);
}

const fixed = (v: number) => (Math.round(v * 10) / 10).toString();

export function linePath(xs: readonly number[], ys: readonly number[], sx: (v: number) => number, sy: (v: number) => number): string {
  return xs.map((x, i) => `${i === 0 ? 'M' : 'L'}${fixed(sx(x))},${fixed(sy(ys[i]!))}`).join('');
}

/** A closed band between an upper and a lower edge over the same x positions. */
export function bandPath(xs: readonly number[], upper: readonly number[], lower: readonly number[], sx: (v: number) => number, sy: (v: number) => number): string {
  if (xs.length === 0) return '';
  const top = xs.map((x, i) => `${i === 0 ? 'M' : 'L'}${fixed(sx(x))},${fixed(sy(upper[i]!))}`).join('');
  const bottom = xs.map((_, j) => {
    const i = xs.length - 1 - j;
    return `L${fixed(sx(xs[i]!))},${fixed(sy(lower[i]!))}`;
  });
  return `${top}${bottom.join('')}Z`;
}

export function formatValue(v: number, format: ValueFormat): string {
  if (!Number.isFinite(v)) return '–';
  if (format === 'percent') return `${Math.round(v * 100)}%`;
  if (format === 'integer') return Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : (Math.round(v * 10) / 10).toString();
  return Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-US') : (Math.round(v * 100) / 100).toString();
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function formatDay(ms: number): string {
  const d = new Date(ms);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
}
