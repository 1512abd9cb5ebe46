// The generation review page and the review queue, signed in as each role that matters:
// deciding, two reviewers deciding at once, an annotator refused by the server, the queue's
// keyboard shortcuts, screenshots, and a 200-file residual (its render time is bench/browser.ts's).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { e2eFixture } from './fixtures/data.ts';
import { E2E_DATABASE_URL, REPO_ROOT, SCREENSHOT_DIR } from './paths.ts';

const generation = (n: number) => {
  const id = e2eFixture().generationIds[n - 1];
  if (!id) throw new Error(`the fixture has no generation ${n}`);
  return id;
};

// Every approval here leaves files unviewed, so it is asked about once and confirmed.
async function decideOnPage(page: Page, button: 'Approve' | 'Reject' | 'Request changes', comment = '') {
  if (comment) await page.getByLabel(/^Comment/).fill(comment);
  await page.getByRole('button', { name: button, exact: true }).click();
  if (button === 'Approve') await page.getByRole('button', { name: 'Approve anyway' }).click();
}

test('the queue lists what waits, oldest first, and j/k/Enter work from the keyboard', async ({ page }) => {
  await signIn(page, 'reviewer', '/review');
  await page.goto('/review');
  const rows = page.getByTestId('queue-row');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThanOrEqual(2);
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('j');
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('k');
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'review-queue.png'), fullPage: true });
  await page.keyboard.press('?');
  await page.keyboard.press('j');
  const href = await rows.nth(1).getByRole('link').getAttribute('href');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText('generation');
});

test('Enter on a sortable queue header sorts the queue (newest waiting first) instead of opening the selected generation', async ({ page }) => {
  await signIn(page, 'reviewer', '/review');
  await page.goto('/review');
  const rows = page.getByTestId('queue-row');
  expect(await rows.count()).toBeGreaterThanOrEqual(2);
  const waiting = page.getByRole('columnheader', { name: /^Waiting since/ });
  await expect(waiting).toHaveAttribute('aria-sort', 'ascending');
  await waiting.getByRole('link').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/review\?sort=waiting&dir=desc$/);
  await expect(waiting).toHaveAttribute('aria-sort', 'descending');
  const since = await rows.locator('time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime') ?? ''));
  expect(since).toEqual([...since].sort().reverse());
});

test('a reviewer approves generation 1 and rejects generation 4 (the newest: a rejection supersedes what evolved from it) with a reason; both show, and the audit log has them', async ({
  page,
  browser,
}) => {
  await signIn(page, 'reviewer', `/generations/${generation(1)}`);
  await page.goto(`/generations/${generation(1)}`);
  await expect(page.getByTestId('generation-state')).toHaveText('awaiting-review');
  await expect(page.getByRole('heading', { name: 'Scenario–skill sequence edit' })).toBeVisible();
  // The validator run details are folded behind their verdict line.
  await expect(page.getByTestId('attempt-1')).toBeHidden();
  await page.getByTestId('verdict-details').locator(':scope > summary').click();
  await expect(page.getByTestId('attempt-1')).toBeVisible();
  // Expand the first residual file: its diff loads on demand.
  await page.getByTestId('residual-file').first().getByRole('button').first().click();
  await expect(page.getByRole('table', { name: /^Diff of / })).toBeVisible();
  await page.getByTestId('residual-file').first().getByLabel('Viewed').check();
  await expect(page.getByTestId('viewed-counter')).toContainText('1 of');
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'generation-review.png'), fullPage: true });

  // A decision stays on the generation, saying what was decided.
  await decideOnPage(page, 'Approve');
  await expect(page.getByTestId('decision-done')).toContainText('generation 1 (approved)');

  await page.goto(`/generations/${generation(4)}`);
  await decideOnPage(page, 'Reject');
  await expect(page.getByTestId('decision-needs-comment')).toContainText('Write why');
  await expect(page.getByLabel(/^Comment/)).toBeFocused();
  await decideOnPage(page, 'Reject', 'The solution hard-codes the expected report.');
  await expect(page.getByTestId('decision-done')).toContainText('generation 4 (rejected)');
  await page.goto(`/generations/${generation(4)}`);
  await expect(page.getByTestId('generation-state')).toHaveText('rejected');
  await expect(page.getByTestId('review-history')).toContainText('The solution hard-codes the expected report.');

  await page.goto(`/generations/${generation(1)}`);
  await expect(page.getByTestId('generation-state')).toHaveText('approved');
  await expect(page.getByTestId('review-history')).toContainText('approve');

  const lead = await browser.newPage();
  await signIn(lead, 'lead', '/audit');
  for (const [n, action] of [
    [1, 'generation.approve'],
    [4, 'generation.reject'],
  ] as const) {
    await lead.goto(`/audit?subjectId=${generation(n)}&action=${action}`);
    await expect(lead.getByTestId('audit-row')).toHaveCount(1);
    await expect(lead.getByTestId('audit-row')).toContainText('reviewer@e2e.envolve.test');
  }
  await lead.close();
});

test('two reviewers decide generation 2 at once: the second is told it changed under them', async ({ browser }) => {
  const first = await (await browser.newContext()).newPage();
  const second = await (await browser.newContext()).newPage();
  await signIn(first, 'reviewer', `/generations/${generation(2)}`);
  await signIn(second, 'reviewer2', `/generations/${generation(2)}`);
  await first.goto(`/generations/${generation(2)}`);
  await second.goto(`/generations/${generation(2)}`);
  await expect(second.getByTestId('generation-state')).toHaveText('awaiting-review');

  await decideOnPage(first, 'Approve');
  await expect(first.getByTestId('decision-done')).toContainText('generation 2 (approved)');
  await decideOnPage(second, 'Approve');
  await expect(second.getByTestId('decision-conflict')).toContainText('changed while you were reviewing');
  await expect(second.getByTestId('decision-conflict')).toContainText('reviewer@e2e.envolve.test');
  await second.reload();
  await expect(second.getByTestId('generation-state')).toHaveText('approved');
  await first.context().close();
  await second.context().close();
});

test('an annotator is refused the review page and the approve API', async ({ page }) => {
  // Annotators may not open the review page at all (it shows rewards); the raw API refuses them too.
  await signIn(page, 'reviewer', `/generations/${generation(3)}`);
  const revision = Number(await page.getByTestId('revision').textContent());
  await signIn(page, 'annotator', '/calibration');
  expect((await page.goto(`/generations/${generation(3)}`))?.status()).toBe(403);
  const answer = await page.evaluate(
    async ({ id, revision }) => {
      const response = await fetch(`/api/generations/${id}/decision`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ decision: 'approve', comment: '', revision }),
      });
      return { status: response.status, body: await response.text() };
    },
    { id: generation(3), revision },
  );
  expect(answer.status).toBe(403);
  await signIn(page, 'reviewer', `/generations/${generation(3)}`);
  await expect(page.getByTestId('generation-state')).toHaveText('awaiting-review');
});

test('the review page of a 200-file residual lists every file and folds the data files', async ({ page }) => {
  const seeded = execFileSync('npx', ['tsx', 'bench/review-large-residual.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    encoding: 'utf8',
  });
  const { generationId } = JSON.parse(seeded.trim().split('\n').at(-1) ?? '{}') as { generationId: string };
  await signIn(page, 'reviewer', `/generations/${generationId}`);
  await page.goto(`/generations/${generationId}`);
  await expect(page.getByTestId('residual-file')).toHaveCount(200);
  // The data files are folded behind their count.
  await page.getByTestId('data-files').locator(':scope > summary').click();
  await page.getByTestId('residual-file').nth(5).getByRole('button').first().click();
  await expect(page.getByRole('table', { name: /^Diff of data\/records-005/ })).toBeVisible();
});
