// Playwright's limits, in one place, from the budgets the specs wait on. As in test/budgets.ts, a limit is
// the budgets waited on one after the other, times SAFETY_FACTOR; a spec that waits on more than a page
// (a validation, an evolution, a backtest) sets its own limit from test/budgets.ts.
import { limitMs, SQLITE_BUSY_MS, UNBUDGETED_STEP_MS, WEB_START_MS } from '../test/budgets.ts';

// The web server Playwright starts (and one a spec starts itself) answers its first request within this.
export const WEB_SERVER_START_LIMIT_MS = limitMs(WEB_START_MS);

// One wait for what a page shows: the server's work, whose statements wait at most SQLite's busy timeout
// for the shared e2e database (global setup's CLI processes and the workers write to it too), then the
// browser's rendering, which no budget bounds.
export const PAGE_WAIT_LIMIT_MS = limitMs(SQLITE_BUSY_MS, UNBUDGETED_STEP_MS);

// A spec that names no limit of its own signs in and then waits on a page at most this many times in a
// row; one that waits more sets its own limit from PAGE_WAIT_LIMIT_MS. The one place this number lives.
const PAGE_WAITS_PER_TEST = 4;
export const DEFAULT_TEST_LIMIT_MS = PAGE_WAITS_PER_TEST * PAGE_WAIT_LIMIT_MS;
