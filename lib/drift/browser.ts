// The browser-safe entry of lib/drift: only code that runs in the browser as well as on the server (no
// database, Docker or node: imports, here or below). Client components import values from here;
// everything else imports lib/drift/index.ts (README, Layers).
export { checkpointSeriesLabel, type CheckpointSeries, type CheckpointSeriesPoint } from './checkpoint-series.ts';
