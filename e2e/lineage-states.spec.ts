// What the lineage pages say is true at the moment they are read: a lineage whose evolve job waits
// in the queue is "queued", then "starting" once a worker holds the job, never "idle"; a generation
// still modifying on a version that was superseded is shown set aside, not at work under it.
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { E2E_DATABASE_URL, REPO_ROOT } from './paths.ts';
import { pageWaitsLimitMs, SIGN_IN_PAGE_WAITS } from './budgets.ts';
import { SQLITE_BUSY_MS, UNBUDGETED_STEP_MS } from '../test/budgets.ts';

interface Seeded {
  waitingId: string;
  jobId: string;
  revisedId: string;
  setAsideId: string;
}

// The seed script's process and its two lineages, each allowed one wait of SQLite's busy timeout.
const SEED_MS = UNBUDGETED_STEP_MS + 2 * SQLITE_BUSY_MS;
// The status badge beside the lineage page's heading.
const status = (page: Page) => page.getByRole('heading', { level: 1 }).locator('xpath=following-sibling::span[1]');

// A worker's claim and the end of the job, written as the queue writes them (lib/queue/claim.ts).
function writeJob(jobId: string, change: 'claim' | 'remove'): void {
  const db = new Database(E2E_DATABASE_URL.replace(/^file:/, ''), { fileMustExist: true, timeout: SQLITE_BUSY_MS });
  try {
    if (change === 'claim') {
      const leaseExpiresAt = Date.now() + 10 * 60_000;
      db.prepare("UPDATE Job SET state = 'running', leaseOwner = 'e2e-worker', leaseExpiresAt = ?, attempts = attempts + 1 WHERE id = ?").run(
        leaseExpiresAt,
        jobId,
      );
    } else {
      db.prepare('DELETE FROM Job WHERE id = ?').run(jobId);
    }
  } finally {
    db.close();
  }
}

let seeded: Seeded;

test.beforeAll(() => {
  const out = execFileSync('npx', ['tsx', 'e2e/fixtures/lineage-states-seed.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    encoding: 'utf8',
  });
  seeded = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Seeded;
});

test.afterAll(() => {
  // No worker a later spec starts may pick up a job for a lineage with nothing real to evolve.
  if (seeded) writeJob(seeded.jobId, 'remove');
});

test('a lineage whose evolve job waits says queued, then starting once a worker claims it, and idle when no work is left', async ({ page }) => {
  test.setTimeout(pageWaitsLimitMs(SIGN_IN_PAGE_WAITS + 8, SEED_MS));
  const url = `/lineages/${seeded.waitingId}`;
  await signIn(page, 'reviewer', url);
  await page.goto(url);
  await expect(status(page)).toHaveText('queued');
  const row = page.getByTestId('lineage-row').filter({ has: page.locator(`a[href="${url}"]`) });
  await page.goto(`/lineages?q=${encodeURIComponent('first start')}&pageSize=100`);
  await expect(row.getByText('queued', { exact: true })).toBeVisible();

  writeJob(seeded.jobId, 'claim');
  await page.goto(url);
  await expect(status(page)).toHaveText('starting');

  writeJob(seeded.jobId, 'remove');
  await page.goto(url);
  await expect(status(page)).toHaveText('idle');
});

test('a generation still modifying on a superseded version is shown superseded, not at work under it', async ({ page }) => {
  const url = `/lineages/${seeded.revisedId}`;
  await signIn(page, 'reviewer', url);
  await page.goto(url);
  await expect(page.getByTestId('lineage-tree')).toHaveAttribute('data-ready', 'true');
  const setAside = page.locator(`[data-node-key="g:${seeded.setAsideId}"]`);
  await expect(setAside).toHaveAttribute('aria-label', /^Generation 4, superseded/);
  await expect(page.locator('[data-node-kind="generation"][aria-label*="modifying"]')).toHaveCount(0);
  await setAside.focus();
  await expect(page.getByTestId('node-details')).toContainText("built on generation 3's version, which is superseded");
});
