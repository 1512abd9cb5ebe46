import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { READABLE_ZOOM } from '../app/lineages/[id]/tree-graph.ts';
import { signIn } from './fixtures/auth.ts';
import { inView, zoomOf } from './fixtures/tree-canvas.ts';
import { e2eFixture } from './fixtures/data.ts';
import { E2E_DATABASE_URL, REPO_ROOT, SCREENSHOT_DIR } from './paths.ts';
import { pageWaitsLimitMs, SIGN_IN_PAGE_WAITS } from './budgets.ts';
import { SQLITE_BUSY_MS, UNBUDGETED_STEP_MS } from '../test/budgets.ts';

const screenshot = (name: string) => path.join(SCREENSHOT_DIR, `${name}.png`);
const focusedKey = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-node-key') ?? null);
// The lineages the tree spec seeds beside its tree, for the list.
const LIST_LINEAGES = 120;
// The tree spec's awaited steps on its tree (each navigation, key press, expectation and read), the nine ArrowLefts one each.
const TREE_PAGE_WAITS = 40;
const minimap = (page: Page) => page.getByRole('img', { name: /^Minimap of the whole tree/ });

// The tree's zoom, read off React Flow's viewport transform.
test('a reviewer finds the lineage, walks its tree by keyboard and opens a generation with Enter', async ({ page }) => {
  const fixture = e2eFixture();
  await signIn(page, 'reviewer', '/lineages');
  await expect(page.getByRole('heading', { level: 1, name: 'Lineages' })).toBeVisible();
  const link = page.locator(`a[href="/lineages/${fixture.lineageId}"]`);
  await expect(link).toContainText('seed-logs-awk');
  const row = page.getByTestId('lineage-row').filter({ has: link });
  await expect(row.getByRole('img', { name: /^Validator pass rate by generation/ })).toBeVisible();

  await link.click();
  await expect(page).toHaveURL(`/lineages/${fixture.lineageId}`);
  const tree = page.getByTestId('lineage-tree');
  await expect(tree).toHaveAttribute('data-ready', 'true');
  await expect(page.getByRole('treeitem')).toHaveCount(await page.locator('[data-node-key]').count());
  // A short lineage needs no minimap. Too wide to read whole beside the details panel, it opens
  // readable with the seed and its newest generation in view, the ones between folded into one node.
  await expect(minimap(page)).toHaveCount(0);
  expect(await zoomOf(page)).toBeGreaterThanOrEqual(READABLE_ZOOM);
  expect(await inView(page, 'seed')).toBe(true);
  expect(await inView(page, `g:${fixture.generationIds.at(-1)}`)).toBe(true);
  const run = page.locator('[data-node-kind="run"]');
  await expect(run).toContainText(`G1–G${fixture.generationIds.length - 1}`);
  await run.click();
  await expect(page.locator('[data-node-kind="generation"]')).toHaveCount(fixture.generationIds.length);

  // Home takes focus to the newest generation; ← walks to its parent, → back to the child.
  const generation = (n: number) => `g:${fixture.generationIds[n - 1]}`;
  const last = fixture.generationIds.length;
  await page.keyboard.press('Home');
  expect(await focusedKey(page)).toBe(generation(last));
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  expect(await focusedKey(page)).toBe(generation(last - 2));
  await page.keyboard.press('ArrowRight');
  expect(await focusedKey(page)).toBe(generation(last - 1));
  await expect(page.getByTestId('node-details')).toContainText(`Generation ${last - 1}`);
  await page.screenshot({ path: screenshot('lineage-tree'), fullPage: true });

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`/generations/${fixture.generationIds[last - 2]}`);
});

test('the lineage routes need a session, and answer 400 for a bad id and 404 for an unknown one', async ({ page, request }) => {
  const fixture = e2eFixture();
  expect((await request.get('/api/lineages')).status()).toBe(401);
  // Annotators label blind and are refused the dashboard's data (it carries pass rates).
  await signIn(page, 'annotator', '/calibration');
  expect((await page.request.get('/api/lineages')).status()).toBe(403);
  await signIn(page, 'reviewer');
  const list = await page.request.get('/api/lineages?q=seed-logs-awk');
  expect(list.ok()).toBe(true);
  const body = (await list.json()) as { items: { id: string }[] };
  expect(body.items.map((item) => item.id)).toContain(fixture.lineageId);
  expect((await page.request.get('/api/lineages?page=0')).status()).toBe(400);
  expect((await page.request.get('/api/lineages/not%20an%20id/tree')).status()).toBe(400);
  expect((await page.request.get('/api/lineages/no-such-lineage/tree')).status()).toBe(404);
  const tree = await page.request.get(`/api/lineages/${fixture.lineageId}/tree`);
  expect(((await tree.json()) as { tree: { generations: unknown[] } }).tree.generations).toHaveLength(fixture.generationIds.length);
});

test('the tree of 15 generations × 3 attempts, beside 120 more lineages, walks by keyboard and fits', async ({ page }) => {
  // The seed script's process and its lineages (the tree's and LIST_LINEAGES more), each allowed one wait
  // of SQLite's busy timeout for the shared file, then the spec's page waits: signing in, the tree's page
  // steps (TREE_PAGE_WAITS), and the list.
  test.setTimeout(pageWaitsLimitMs(SIGN_IN_PAGE_WAITS + TREE_PAGE_WAITS + 2, UNBUDGETED_STEP_MS, (1 + LIST_LINEAGES) * SQLITE_BUSY_MS));
  const seeded = execFileSync('npx', ['tsx', 'bench/lineage-tree-seed.ts', '--lineages', String(LIST_LINEAGES)], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    encoding: 'utf8',
  });
  const { lineageId, generationIds } = JSON.parse(seeded.trim().split('\n').at(-1) ?? '{}') as { lineageId: string; generationIds: string[] };
  const generation = (n: number) => `g:${generationIds[n - 1]}`;
  const url = `/lineages/${lineageId}`;
  await signIn(page, 'reviewer', url);

  await page.goto(url);
  await expect(page.getByTestId('lineage-tree')).toHaveAttribute('data-ready', 'true');

  // Too long to read whole, it opens readable with the seed, the released frontier at 3 and
  // generation 15 being validated (where focus starts) in view, 1–2 and 4–14 each folded into a run.
  const runs = page.locator('[data-node-kind="run"]');
  await expect(runs).toHaveCount(2);
  await expect(page.locator('[data-node-kind="generation"]')).toHaveCount(2);
  expect(await zoomOf(page)).toBeGreaterThanOrEqual(READABLE_ZOOM);
  for (const key of ['seed', generation(3), generation(15)]) expect(await inView(page, key)).toBe(true);
  await expect(page.locator('[data-compact]')).toHaveCount(0);
  await page.screenshot({ path: screenshot('lineage-tree-15x3-open'), fullPage: true });
  // Expanded, 4–14 are drawn with their attempts and 6's failed sibling, and a minimap of the whole tree.
  await runs.nth(1).click();
  await expect(page.locator('[data-node-kind="generation"]')).toHaveCount(14);
  await expect(page.locator('[data-node-kind="attempt"]')).toHaveCount(13 * 2 + 3);
  await expect(minimap(page)).toBeVisible();
  // From generation 15 back to 6, then down past 6's failed attempts to its failed sibling.
  await page.keyboard.press('Home');
  for (let i = 0; i < 9; i += 1) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowDown');
  await expect(page.locator(':focus')).toHaveAttribute('aria-label', /^Attempt 1 of generation 6: (invalid|error)/);
  await page.keyboard.press('ArrowDown');
  await expect(page.locator(':focus')).toHaveAttribute('aria-label', /^Generation 6, failed/);
  await expect(page.getByTestId('node-details')).toContainText('no valid candidate');
  await page.screenshot({ path: screenshot('lineage-tree-15x3'), fullPage: true });

  // Fit all does not shrink the tree past reading: it folds the runs again and shows it all readable.
  await page.getByRole('button', { name: 'Fit all' }).click();
  await expect(runs).toHaveCount(2);
  await expect.poll(() => zoomOf(page)).toBeGreaterThanOrEqual(READABLE_ZOOM);
  expect(await inView(page, 'seed')).toBe(true);
  expect(await inView(page, generation(15))).toBe(true);
  await expect(page.locator('[data-compact]')).toHaveCount(0);
  await page.screenshot({ path: screenshot('lineage-tree-15x3-all'), fullPage: true });
  // Fit frontier, from the keyboard, goes back to the readable working end.
  await page.getByRole('button', { name: 'Fit frontier' }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => zoomOf(page)).toBeGreaterThanOrEqual(READABLE_ZOOM);
  expect(await inView(page, generation(15))).toBe(true);
  await expect(page.locator('[data-compact]')).toHaveCount(0);

  await page.goto('/lineages?pageSize=100');
  await expect(page.getByTestId('lineage-row')).toHaveCount(100);
});
