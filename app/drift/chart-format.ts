// How chart values and dates read: the axes, the cursor readout and the CSV-less summaries agree.

export type ValueFormat = 'percent' | 'number' | 'integer';

export function formatValue(v: number, format: ValueFormat): string {
  if (!Number.isFinite(v)) return '–';
  if (format === 'percent') return `${Math.round(v * 100)}%`;
  if (format === 'integer') return Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : (Math.round(v * 10) / 10).toString();
  return Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-US') : (Math.round(v * 100) / 100).toString();
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Nov 3", in UTC: the time axes are in UTC so every reader sees the same day. */
export function formatDay(ms: number): string {
  const d = new Date(ms);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

/** "Nov 3 14:05 UTC", for the cursor on a time axis. */
export function formatMoment(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${formatDay(ms)} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}
