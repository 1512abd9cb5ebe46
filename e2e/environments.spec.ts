import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { SCREENSHOT_DIR, SEEDED_FILE, type Seeded } from './paths.ts';

const seeded = JSON.parse(readFileSync(SEEDED_FILE, 'utf8')) as Seeded;
const screenshot = (name: string) => path.join(SCREENSHOT_DIR, `${name}.png`);

test.beforeEach(async ({ page }) => signIn(page, 'reviewer'));

test('the root is the home page; the environments list is one click away', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('home-review')).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Environments' }).click();
  await expect(page).toHaveURL(/\/environments$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Environments' })).toBeVisible();
});

test('the list shows the imported task with both validators passed', async ({ page }) => {
  await page.goto('/environments');
  const row = page.getByTestId('environment-row').filter({ hasText: seeded.name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(seeded.versionId.slice(0, 12));

  const oracle = row.getByTestId('oracle-verdict');
  await expect(oracle).toContainText('passed');
  await expect(oracle).toContainText('reward 1');
  const invalidTest = row.getByTestId('invalid-test-verdict');
  await expect(invalidTest).toContainText('passed');
  await expect(invalidTest).toContainText('reward 0');
  await page.screenshot({ path: screenshot('environments'), fullPage: true });
});

test('search by name narrows the list', async ({ page }) => {
  await page.goto('/environments');
  await page.getByLabel('Search environments by name').fill('no-such-environment');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No environment name contains “no-such-environment”.')).toBeVisible();
});

test('the detail page shows files and runs, and opens the oracle agent log', async ({ page }) => {
  await page.goto('/environments');
  await page.getByRole('link', { name: seeded.name }).click();
  await expect(page).toHaveURL(`/environments/${seeded.versionId}`);
  await expect(page.getByRole('heading', { level: 1, name: seeded.name })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'tests/test.sh' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'solution/solve.sh' })).toBeVisible();

  const oracleRun = page.getByTestId('run-oracle').first();
  await expect(oracleRun).toContainText('passed');
  await expect(page.getByTestId('run-invalid-test').first()).toContainText('passed');

  await oracleRun.getByText('Agent log').click();
  const log = oracleRun.getByTestId('agent-log');
  await expect(log).toBeVisible();
  await expect(log).not.toHaveText('');
  await page.screenshot({ path: screenshot('environment-detail'), fullPage: true });
});

test('the JSON routes answer 400 for bad ids, 404 for unknown ones, and serve logs as text', async ({ page }) => {
  // The page's request context carries the signed-in session cookie.
  const request = page.request;
  expect((await request.get('/api/environments/not-a-hash')).status()).toBe(400);
  expect((await request.get(`/api/environments/${'0'.repeat(64)}`)).status()).toBe(404);

  const detail = await request.get(`/api/environments/${seeded.versionId}`);
  expect(detail.ok()).toBe(true);
  const { environment } = (await detail.json()) as { environment: { runs: { id: string; kind: string }[] } };
  const oracle = environment.runs.find((run) => run.kind === 'oracle');
  expect(oracle).toBeDefined();

  const log = await request.get(`/api/validator-runs/${oracle?.id}/log?phase=verifier`);
  expect(log.headers()['content-type']).toContain('text/plain');
  expect((await request.get(`/api/validator-runs/${oracle?.id}/log?phase=other`)).status()).toBe(400);
});

test('a column header sorts the files both ways, and the URL keeps the order', async ({ page }) => {
  await page.goto(`/environments/${seeded.versionId}`);
  const table = page.getByRole('table', { name: 'Files of this environment version' });
  const pathHeader = table.getByRole('columnheader', { name: /^Path/ });
  const paths = () => table.locator('tbody tr td:first-child').allTextContents();
  await expect(pathHeader).toHaveAttribute('aria-sort', 'ascending');
  const ascending = await paths();
  expect(ascending.length).toBeGreaterThan(2);

  await pathHeader.getByRole('link').click();
  await expect(page).toHaveURL(/[?&]sort=path&dir=desc/);
  await expect(pathHeader).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(paths).toEqual([...ascending].reverse());

  // The link reproduces the view; Enter on the header flips it back.
  await page.reload();
  await expect(pathHeader).toHaveAttribute('aria-sort', 'descending');
  expect(await paths()).toEqual([...ascending].reverse());
  await pathHeader.getByRole('link').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`/environments/${seeded.versionId}`);
  await expect(pathHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(paths).toEqual(ascending);
});
