// CSV output.
// The public API of lib/csv: other modules import it from here, never from its files (README, Layers).
export { stringifyCsv, type CsvValue } from './stringify.ts';
