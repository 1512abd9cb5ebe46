// Review actions say what they did and what follows, and land in one place: after every decision
// and every undo the page stays on the decided generation, its banner naming the generations the
// decision set aside (superseded) and what the lineage does next, with the next generation in the
// queue a link away. The undo is offered only while it can work, and undoing a change request
// restores what it set aside. Each test decides on generation 1 of a lineage of its own.
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { PENDING_REFETCH_MS } from '../app/_components/http.ts';
import { SQLITE_BUSY_MS } from '../test/budgets.ts';
import { pageWaitsLimitMs } from './budgets.ts';
import { signIn } from './fixtures/auth.ts';
import { E2E_DATABASE_URL, REPO_ROOT } from './paths.ts';

let lineages: string[][] = [];

test.beforeAll(() => {
  const out = execFileSync('npx', ['tsx', 'e2e/fixtures/review-actions-seed.ts', '3'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    encoding: 'utf8',
  });
  lineages = (JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { lineages: string[][] }).lineages;
  expect(lineages).toHaveLength(3);
});

async function openDecidable(page: Page, id: string): Promise<void> {
  await signIn(page, 'reviewer', `/generations/${id}`);
  await page.goto(`/generations/${id}`);
  await expect(page.getByRole('form', { name: 'Decision' })).toHaveAttribute('data-keys-ready', '');
}

async function requestChanges(page: Page, comment: string): Promise<void> {
  await page.getByLabel(/^Comment/).fill(comment);
  await page.getByRole('button', { name: 'Request changes' }).click();
}

// The page's shortcuts act when no text field has the focus.
async function pressOnPage(page: Page, key: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press(key);
}

test('request changes names what it set aside and what is rebuilt; undo (u) restores them, on the same page', async ({ page }) => {
  test.setTimeout(pageWaitsLimitMs(12));
  const [g1, ...setAside] = lineages[0]!;
  await openDecidable(page, g1!);
  await requestChanges(page, 'Name the output file in the instruction.');

  await expect(page).toHaveURL(new RegExp(`/generations/${g1}\\?decided=`));
  const banner = page.getByTestId('decision-done');
  await expect(banner).toContainText(/Requested changes on set-aside 1-\d+ generation 1 \(changes-requested\)/);
  await expect(page.getByTestId('generation-state')).toHaveText('changes-requested');
  await expect(banner.getByTestId('decision-set-aside')).toHaveText('Set aside (superseded, built on its version): 3 generations, G2, G3, G4.');
  await expect(banner.getByTestId('decision-follows')).toContainText('once it is awaiting review again, 3 generations are evolved from it');
  await expect(banner.getByRole('link', { name: 'G3', exact: true })).toHaveAttribute('href', `/generations/${setAside[1]}`);
  await expect(banner.getByTestId('decision-next')).toContainText('Next in queue:');

  await expect(page.getByRole('form', { name: 'Decision' })).toHaveAttribute('data-keys-ready', '');
  await pressOnPage(page, 'u');
  await expect(page).toHaveURL(new RegExp(`/generations/${g1}\\?undone=`));
  const undone = page.getByTestId('decision-undone');
  await expect(undone).toContainText(/Undid your change request on set-aside 1-\d+ generation 1; it is awaiting-review again/);
  await expect(undone.getByTestId('undo-restored')).toHaveText('Restored to where they stood: 3 generations, G2, G3, G4.');
  await expect(page.getByTestId('generation-state')).toHaveText('awaiting-review');
  await expect(page.getByTestId('undo-error')).toHaveCount(0);
  for (const id of setAside) {
    await page.goto(`/generations/${id}`);
    await expect(page.getByTestId('generation-state')).toHaveText('awaiting-review');
  }
});

test('undo is offered only while it can work: once a worker takes up the revision, the button goes and says why', async ({ page }) => {
  test.setTimeout(pageWaitsLimitMs(8, PENDING_REFETCH_MS));
  const [g1] = lineages[1]!;
  await openDecidable(page, g1!);
  await requestChanges(page, 'Ask a harder question of the data.');
  const banner = page.getByTestId('decision-done');
  await expect(banner.getByRole('button', { name: 'Undo (u)' })).toBeVisible();

  // What a worker does when it picks up the revision job.
  const db = new Database(E2E_DATABASE_URL.replace(/^file:/, ''), { fileMustExist: true, timeout: SQLITE_BUSY_MS });
  try {
    const taken = db.prepare(`UPDATE Job SET state = 'running' WHERE dedupeKey = ?`).run(`revise:${g1}:1`);
    expect(taken.changes).toBe(1);
  } finally {
    db.close();
  }
  await expect(banner.getByTestId('undo-unavailable')).toHaveText('It can no longer be undone: the revision it queued has started.', {
    timeout: pageWaitsLimitMs(1, PENDING_REFETCH_MS),
  });
  await expect(banner.getByRole('button', { name: 'Undo (u)' })).toHaveCount(0);
  await pressOnPage(page, 'u');
  await expect(page.getByTestId('undo-error')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('decision-done').getByTestId('undo-unavailable')).toContainText('the revision it queued has started');
  await expect(page.getByTestId('generation-state')).toHaveText('changes-requested');
});

test('a rejection lands on the rejected generation too, naming what it set aside, with the next in queue one key away', async ({ page }) => {
  test.setTimeout(pageWaitsLimitMs(8));
  const [g1] = lineages[2]!;
  await openDecidable(page, g1!);
  await page.getByLabel(/^Comment/).fill('The added step tests nothing new.');
  await page.getByRole('button', { name: 'Reject' }).click();
  await expect(page).toHaveURL(new RegExp(`/generations/${g1}\\?decided=`));
  const banner = page.getByTestId('decision-done');
  await expect(banner).toContainText(/Rejected set-aside 3-\d+ generation 1 \(rejected\)/);
  await expect(banner.getByTestId('decision-set-aside')).toHaveText('Set aside (superseded, built on its version): 3 generations, G2, G3, G4.');
  await expect(banner.getByTestId('decision-follows')).toContainText('generation 1 is never served');
  const next = banner.getByTestId('decision-next');
  const href = await next.getAttribute('href');
  expect(href).toMatch(/^\/generations\/[a-z0-9]+$/);
  await expect(page.getByRole('form', { name: 'Decision' })).toHaveAttribute('data-keys-ready', '');
  await pressOnPage(page, 'n');
  await expect(page).toHaveURL(new RegExp(`${href}$`));
});
