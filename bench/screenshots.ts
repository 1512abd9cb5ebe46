// Screenshots of every dashboard page, each as the role that works there, at 1440×900 and
// 1024×768, in the light and the dark colour scheme, into bench/results/screenshots/ (named page-viewport-scheme.png).
// It serves the production build over the end-to-end database, so run the e2e suite first
// (it fills that database with lineages, reviews, missed issues, calibration sets, …):
//   npx next build && ENVOLVE_E2E_PORT=3172 npx playwright test
//   npx tsx bench/screenshots.ts [--port 3174] [--out bench/results/screenshots]
// A page whose subject the database lacks (no calibration set yet, …) is listed as skipped.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { USERS, type E2eUser } from '../e2e/fixtures/auth.ts';
import { E2E_DATABASE_URL, REPO_ROOT } from '../e2e/paths.ts';
import { CHROMIUM_ARGS } from './browser.ts';

const VIEWPORTS = [
  { name: '1440', width: 1440, height: 900 },
  { name: '1024', width: 1024, height: 768 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

interface Shot {
  name: string;
  path: string | null; // null: the database has no subject for it
  as: E2eUser | null; // null: signed out
  prepare?: (page: Page) => Promise<void>; // what to open before the shot
}

// The subjects of the pages with an id: the richest of each kind in the e2e database.
function subjects(): Record<string, string | null> {
  const db = new Database(E2E_DATABASE_URL.replace(/^file:/, ''), { readonly: true, fileMustExist: true });
  const one = (sql: string) => (db.prepare(sql).get() as { id: string } | undefined)?.id ?? null;
  try {
    const rollouts = db.prepare('SELECT id FROM Rollout ORDER BY turns DESC LIMIT 2').all() as { id: string }[];
    return {
      environment: one('SELECT id FROM EnvironmentVersion ORDER BY createdAt ASC LIMIT 1'),
      lineage: one('SELECT lineageId AS id FROM Generation GROUP BY lineageId ORDER BY COUNT(*) DESC LIMIT 1'),
      // One with a residual to read: the review page's diff is what the shot is for.
      generation: one(
        "SELECT g.id FROM Generation g JOIN Attempt a ON a.generationId = g.id WHERE g.versionId IS NOT NULL AND a.residual IS NOT NULL ORDER BY CASE g.state WHEN 'awaiting-review' THEN 0 ELSE 1 END, g.number DESC LIMIT 1",
      ),
      trajectory: rollouts[0]?.id ?? null,
      compare: rollouts.length === 2 ? `a=${rollouts[0]!.id}&b=${rollouts[1]!.id}` : null,
      calibration: one('SELECT id FROM CalibrationSet ORDER BY createdAt ASC LIMIT 1'),
      missedIssue: one('SELECT id FROM MissedIssue ORDER BY createdAt ASC LIMIT 1'),
      rubricItem: one("SELECT id FROM RubricItem ORDER BY CASE source WHEN 'missed-issue' THEN 0 ELSE 1 END, createdAt DESC LIMIT 1"),
    };
  } finally {
    db.close();
  }
}

function shots(s: Record<string, string | null>): Shot[] {
  const at = (key: string, build: (id: string) => string) => (s[key] ? build(s[key]!) : null);
  return [
    { name: 'sign-in', path: '/sign-in', as: null },
    { name: 'home-trainer', path: '/', as: 'trainer' },
    { name: 'home-reviewer', path: '/', as: 'reviewer' },
    { name: 'home-lead', path: '/', as: 'lead' },
    { name: 'environments', path: '/environments', as: 'reviewer' },
    { name: 'environment', path: at('environment', (id) => `/environments/${id}`), as: 'reviewer' },
    { name: 'lineages', path: '/lineages', as: 'reviewer' },
    { name: 'lineage-tree', path: at('lineage', (id) => `/lineages/${id}`), as: 'reviewer' },
    { name: 'review-queue', path: '/review', as: 'reviewer' },
    { name: 'generation', path: at('generation', (id) => `/generations/${id}`), as: 'reviewer' },
    {
      name: 'generation-diff',
      path: at('generation', (id) => `/generations/${id}`),
      as: 'reviewer',
      prepare: async (page) => {
        await page.getByTestId('residual-file').first().getByRole('button').first().click();
        await page
          .getByRole('table', { name: /^Diff of / })
          .first()
          .waitFor({ timeout: 30_000 });
      },
    },
    { name: 'missed-issue-new', path: at('generation', (id) => `/generations/${id}/missed-issue/new`), as: 'reviewer' },
    { name: 'trajectories', path: '/trajectories', as: 'reviewer' },
    { name: 'trajectory', path: at('trajectory', (id) => `/trajectories/${id}`), as: 'reviewer' },
    { name: 'trajectories-compare', path: at('compare', (query) => `/trajectories/compare?${query}`), as: 'reviewer' },
    { name: 'drift', path: '/drift', as: 'lead' },
    { name: 'drift-lineage', path: at('lineage', (id) => `/drift?lineage=${id}`), as: 'lead' },
    { name: 'drift-by-time', path: '/drift?x=time', as: 'lead' },
    { name: 'missed-issues', path: '/missed-issues', as: 'lead' },
    { name: 'missed-issue', path: at('missedIssue', (id) => `/missed-issues/${id}`), as: 'lead' },
    { name: 'rubric', path: '/rubric', as: 'lead' },
    { name: 'rubric-item', path: at('rubricItem', (id) => `/rubric/${id}`), as: 'lead' },
    { name: 'calibration', path: '/calibration', as: 'lead' },
    { name: 'calibration-set', path: at('calibration', (id) => `/calibration/${id}`), as: 'lead' },
    { name: 'calibration-adjudicate', path: at('calibration', (id) => `/calibration/${id}/adjudicate`), as: 'lead' },
    { name: 'calibration-label', path: at('calibration', (id) => `/calibration/${id}/label`), as: 'annotator' },
    { name: 'audit', path: '/audit', as: 'admin' },
    { name: 'admin-users', path: '/admin/users', as: 'admin' },
    { name: 'not-found', path: '/no-such-page', as: 'reviewer' },
  ];
}

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

const { values } = parseArgs({ options: { port: { type: 'string', default: '3174' }, out: { type: 'string', default: 'bench/results/screenshots' } } });
const out = path.resolve(REPO_ROOT, values.out!);
mkdirSync(out, { recursive: true });
const list = shots(subjects());
const { server, base } = await startServer(Number(values.port));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  const sessions = new Map<E2eUser, Awaited<ReturnType<typeof sessionOf>>>();
  for (const shot of list) if (shot.as && !sessions.has(shot.as)) sessions.set(shot.as, await sessionOf(browser, base, shot.as));
  let taken = 0;
  for (const viewport of VIEWPORTS) {
    for (const colorScheme of SCHEMES) {
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
