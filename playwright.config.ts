import { mkdirSync, rmSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { DEFAULT_TEST_LIMIT_MS, PAGE_WAIT_LIMIT_MS, WEB_SERVER_START_LIMIT_MS } from './e2e/budgets.ts';
import { E2E_DATABASE_URL, E2E_DIR } from './e2e/paths.ts';

const PORT = Number(process.env.ENVOLVE_E2E_PORT ?? 3123);
const BASE_URL = `http://127.0.0.1:${PORT}`;

// e2e/layout.spec.ts checks every page's layout over the data the other specs leave behind, so
// its project depends on theirs. ENVOLVE_E2E_LAYOUT_ONLY=1 runs only it, over the database an
// earlier whole run left in the state directory: no wipe, no global setup, no other spec.
const LAYOUT_ONLY = Boolean(process.env.ENVOLVE_E2E_LAYOUT_ONLY);
const LAYOUT_SPEC = /layout\.spec\.ts$/;

// The runner evaluates this file first, before it starts the web server; worker
// processes evaluate it again with the runner's environment. Only that first
// evaluation starts the run from an empty state directory.
if (!process.env.ENVOLVE_E2E_STARTED && !LAYOUT_ONLY) {
  process.env.ENVOLVE_E2E_STARTED = '1';
  rmSync(E2E_DIR, { recursive: true, force: true });
  mkdirSync(E2E_DIR, { recursive: true });
}

// The machine's Chromium, never a downloaded one; without the background-networking
// flags it keeps trying to reach Google's services from a closed network.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'e2e',
  globalSetup: LAYOUT_ONLY ? undefined : './e2e/global-setup.ts',
  // Importing and validating in Docker happens once, in global setup, within the product's own
  // validation and evolution budgets. Every test has a limit derived from what it waits on
  // (e2e/budgets.ts), so the run as a whole gets none: a sum of guesses would only add one more.
  timeout: DEFAULT_TEST_LIMIT_MS,
  expect: { timeout: PAGE_WAIT_LIMIT_MS },
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
    screenshot: 'only-on-failure',
  },
  projects: [
    ...(LAYOUT_ONLY ? [] : [{ name: 'e2e', testIgnore: LAYOUT_SPEC }]),
    { name: 'layout', testMatch: LAYOUT_SPEC, dependencies: LAYOUT_ONLY ? [] : ['e2e'] },
  ],
  webServer: {
    // Serves the existing production build: run `npx next build` first (npm test does).
    command: 'node bin/envolve.mjs web',
    // A static file, so the readiness probe opens no database connection: while one
    // is open, the CLI's migrate step in global setup waits on SQLite's lock.
    url: `${BASE_URL}/icon.svg`,
    // Every spec signs in from 127.0.0.1 (no trusted proxies: X-Forwarded-For is ignored), so the
    // per-address sign-in limit is raised past a whole run's wrong passwords; the per-account
    // limit stays at its default, which e2e/security.spec.ts relies on.
    env: { DATABASE_URL: E2E_DATABASE_URL, HOST: '127.0.0.1', PORT: String(PORT), ENVOLVE_SIGNIN_MAX_ATTEMPTS_PER_ADDRESS: '1000' },
    reuseExistingServer: false,
    timeout: WEB_SERVER_START_LIMIT_MS,
    stdout: 'pipe',
  },
});
