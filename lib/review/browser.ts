// The browser-safe entry of lib/review: only code that runs in the browser as well as on the server (no
// database, Docker or node: imports, here or below). Client components import values from here;
// everything else imports lib/review/index.ts (README, Layers).
export { EXPAND_STEP, gapToReveal, toHunks, type DiffLine, type DiffSegment } from './file-diff.ts';
export { QUEUE_DEFAULT_SORT, type QueueItem, type QueuePage } from './queue.ts';
