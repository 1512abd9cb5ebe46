// Playwright's limits, in one place, from the budgets the specs wait on. As in test/budgets.ts, a limit is
// the budgets waited on one after the other, times SAFETY_FACTOR; a spec that waits on more than a page
// (a validation, an evolution, a backtest) sets its own limit from test/budgets.ts.
import { limitMs, SQLITE_BUSY_MS, UNBUDGETED_STEP_MS, WEB_START_MS } from '../test/budgets.ts';

// The web server Playwright starts (and one a spec starts itself) answers its first request within this.
export const WEB_SERVER_START_LIMIT_MS = limitMs(WEB_START_MS);

// One wait for what a page shows: the server's work, whose statements wait at most SQLite's busy timeout
// for the shared e2e database (global setup's CLI processes and the workers write to it too), then the
// browser's rendering, which no budget bounds.
const PAGE_WAIT_MS = SQLITE_BUSY_MS + UNBUDGETED_STEP_MS;
export const PAGE_WAIT_LIMIT_MS = limitMs(PAGE_WAIT_MS);

// A spec that waits on `pageWaits` page waits one after the other (each awaited navigation, action or
// expectation on a page or the server), and on `otherBudgetsMs` between them (a CLI process, an
// evolution, a server's request timeout): its limit, from test/budgets.ts's limitMs.
export function pageWaitsLimitMs(pageWaits: number, ...otherBudgetsMs: number[]): number {
  return limitMs(pageWaits * PAGE_WAIT_MS, ...otherBudgetsMs);
}

// fixtures/auth.ts's signIn: the sign-in page, then the landing page showing the user.
export const SIGN_IN_PAGE_WAITS = 2;

// A spec that names no limit of its own signs in and then waits on a page at most this many times in a
// row; one that waits more sets its own limit with pageWaitsLimitMs. The one place this number lives.
const PAGE_WAITS_PER_TEST = 4;
export const DEFAULT_TEST_LIMIT_MS = pageWaitsLimitMs(PAGE_WAITS_PER_TEST);
