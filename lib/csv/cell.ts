// One CSV cell (RFC 4180: quoted when needed). Spreadsheets run a text cell that begins with
// =, +, -, @, a tab or a CR as a formula (=HYPERLINK(…) sends the reader's data elsewhere), so
// such text gets a leading apostrophe: shown as text, the apostrophe hidden. Numbers stay
// numbers (-0.5 is data, not a formula).
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
