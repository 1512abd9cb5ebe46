// Screenshots of every dashboard page (the list in e2e/fixtures/pages.ts), each as the role that works there, at 1440×900 and
// 1024×768, in the light and the dark colour scheme, into bench/results/screenshots/ (named page-viewport-scheme.png).
// It serves the production build over the end-to-end database, so run the e2e suite first
// (it fills that database with lineages, reviews, missed issues, calibration sets, …):
//   npx next build && ENVOLVE_E2E_PORT=3172 npx playwright test
//   npx tsx bench/screenshots.ts [--port 3174] [--out bench/results/screenshots] [--only page,page]
// A page whose subject the database lacks (no calibration set yet, …) is listed as skipped.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { USERS, type E2eUser } from '../e2e/fixtures/auth.ts';
import { COLOR_SCHEMES, DASHBOARD_PAGES, e2eSubjects, pathIn, VIEWPORTS } from '../e2e/fixtures/pages.ts';
import { E2E_DATABASE_URL, REPO_ROOT } from '../e2e/paths.ts';
import { CHROMIUM_ARGS } from './browser.ts';

async function startServer(port: number): Promise<{ server: ChildProcess; base: string }> {
  const base = `http://127.0.0.1:${port}`;
  const server = spawn('node', ['bin/envolve.mjs', 'web'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: E2E_DATABASE_URL,
      HOST: '127.0.0.1',
      PORT: String(port),
      BETTER_AUTH_URL: base,
      ENVOLVE_SIGNIN_MAX_ATTEMPTS_PER_ADDRESS: '1000',
    },
    stdio: 'ignore',
  });
  for (let waited = 0; waited < 180_000; waited += 500) {
    if (server.exitCode !== null) throw new Error(`the web server exited with ${server.exitCode}: is there a production build (npx next build)?`);
    const up = await fetch(`${base}/icon.svg`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { server, base };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  server.kill('SIGTERM');
  throw new Error(`the web server did not answer on ${base} within 3 minutes`);
}

// One signed-in session per role, through the real sign-in form, reused for every shot.
async function sessionOf(browser: Browser, base: string, who: E2eUser): Promise<Awaited<ReturnType<BrowserContext['storageState']>>> {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await page.goto('/sign-in?next=/environments');
  await page.getByLabel('Email').fill(USERS[who].email);
  await page.getByLabel('Password').fill(USERS[who].password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('signed-in-user').waitFor({ timeout: 30_000 });
  const state = await context.storageState();
  await context.close();
  return state;
}

const { values } = parseArgs({
  options: { port: { type: 'string', default: '3174' }, out: { type: 'string', default: 'bench/results/screenshots' }, only: { type: 'string' } },
});
const out = path.resolve(REPO_ROOT, values.out!);
mkdirSync(out, { recursive: true });
const subjects = e2eSubjects();
const list = DASHBOARD_PAGES.filter((shot) => !values.only || values.only.split(',').includes(shot.name)).map((shot) => ({
  ...shot,
  path: pathIn(shot, subjects),
}));
const { server, base } = await startServer(Number(values.port));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  const sessions = new Map<E2eUser, Awaited<ReturnType<typeof sessionOf>>>();
  for (const shot of list) if (shot.as && !sessions.has(shot.as)) sessions.set(shot.as, await sessionOf(browser, base, shot.as));
  let taken = 0;
  for (const viewport of VIEWPORTS) {
    for (const colorScheme of COLOR_SCHEMES) {
      for (const shot of list) {
        if (!shot.path) continue;
        const context = await browser.newContext({ baseURL: base, viewport, colorScheme, storageState: shot.as ? sessions.get(shot.as) : undefined });
        const page = await context.newPage();
        await page.goto(shot.path, { waitUntil: 'load', timeout: 60_000 });
        // Pages that poll (a live tree, a running backtest) never go quiet: settle for a pause.
        await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
        await shot.prepare?.(page);
        await page.screenshot({ path: path.join(out, `${shot.name}-${viewport.name}-${colorScheme}.png`), fullPage: true });
        await context.close();
        taken += 1;
      }
    }
  }
  const skipped = list.filter((shot) => !shot.path).map((shot) => shot.name);
  console.log(
    `${taken} screenshots in ${path.relative(REPO_ROOT, out)}${skipped.length ? `; skipped (nothing to show in the e2e database): ${skipped.join(', ')}` : ''}`,
  );
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
