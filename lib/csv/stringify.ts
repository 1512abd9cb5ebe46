// CSV text (RFC 4180: a cell is quoted when it holds a quote, comma or line break; CRLF after
// every record). Spreadsheets run a text cell that begins with =, +, -, @, a tab or a CR, or with
// the full-width ＝ ＋ － ＠ they normalise to those, as a formula (=HYPERLINK(…) sends the reader's
// data elsewhere), so such text gets a leading apostrophe: shown as text, the apostrophe hidden.
// Numbers stay numbers (-0.5 is data, not a formula); a number that is not finite is an empty cell.
import { stringify } from 'csv-stringify/sync';

export type CsvValue = string | number | boolean | null | undefined;

export function stringifyCsv(rows: readonly (readonly CsvValue[])[]): string {
  return stringify(
    rows.map((row) => [...row]),
    {
      record_delimiter: 'windows',
      // A lone CR or LF inside a cell is quoted too, whatever ends the records.
      quote_record_delimiter: true,
      escape_formulas: true,
      cast: {
        number: (value) => (Number.isFinite(value) ? String(value) : ''),
        boolean: (value) => String(value),
      },
    },
  );
}
