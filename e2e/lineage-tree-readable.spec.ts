// The lineage tree at 1400 px opens with the seed, the released frontier and the newest work in
// view, every label readable, and Fit all keeps them so, at 15 and at 100 generations: runs of
// generations between them are drawn as one node ("G4–G14, 11 generations") that expands in place.
import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { COMPACT_BELOW_ZOOM, READABLE_ZOOM } from '../app/lineages/[id]/tree-graph.ts';
import { signIn } from './fixtures/auth.ts';
import { inView, zoomOf } from './fixtures/tree-canvas.ts';
import { E2E_DATABASE_URL, REPO_ROOT } from './paths.ts';
import { pageWaitsLimitMs, SIGN_IN_PAGE_WAITS } from './budgets.ts';
import { SQLITE_BUSY_MS, UNBUDGETED_STEP_MS } from '../test/budgets.ts';

test.use({ viewport: { width: 1400, height: 900 } });

// Each test's awaited steps on its tree: navigations, clicks, key presses, expectations and reads.
const TREE_PAGE_WAITS = 39;

// Seeds a lineage of `generations` (bench/lineage-tree-seed.ts: released to generations − 12, the
// newest being validated, failed siblings every 15) and opens its tree.
async function openSeeded(page: Page, generations: number): Promise<string[]> {
  const seeded = execFileSync('npx', ['tsx', 'bench/lineage-tree-seed.ts', '--lineages', '0', '--generations', String(generations)], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    encoding: 'utf8',
  });
  const { lineageId, generationIds } = JSON.parse(seeded.trim().split('\n').at(-1) ?? '{}') as { lineageId: string; generationIds: string[] };
  const url = `/lineages/${lineageId}`;
  await signIn(page, 'reviewer', url);
  await page.goto(url);
  await expect(page.getByTestId('lineage-tree')).toHaveAttribute('data-ready', 'true');
  return generationIds;
}

// Readable: at least READABLE_ZOOM, no card reduced to its number, the seed, the frontier and the newest in view.
async function expectReadable(page: Page, keys: string[]): Promise<void> {
  expect(await zoomOf(page)).toBeGreaterThanOrEqual(READABLE_ZOOM);
  await expect(page.locator('[data-compact]')).toHaveCount(0);
  for (const key of keys) expect(await inView(page, key), `${key} in view`).toBe(true);
}

for (const generations of [15, 100]) {
  test(`${generations} generations open and fit all readable, with the seed, the frontier and the newest in view`, async ({ page }) => {
    // The seed script's process and its lineage, allowed one wait of SQLite's busy timeout per generation.
    test.setTimeout(pageWaitsLimitMs(SIGN_IN_PAGE_WAITS + TREE_PAGE_WAITS, UNBUDGETED_STEP_MS, generations * SQLITE_BUSY_MS));
    const ids = await openSeeded(page, generations);
    const frontier = generations - 12;
    const key = (n: number) => `g:${ids[n - 1]}`;
    const visible = ['seed', key(frontier), key(generations)];
    await expectReadable(page, visible);
    // Between them, the runs: 1 to the frontier's parent, and the frontier's child to the newest's parent.
    const runs = page.locator('[data-node-kind="run"]');
    await expect(runs).toHaveCount(2);
    await expect(runs.nth(1)).toContainText(`G${frontier + 1}–G${generations - 1}`);
    await expect(runs.nth(1)).toContainText(`${generations - 1 - frontier} generations`);

    // Zoomed far out (cards down to their numbers), Fit all comes back to a readable whole.
    for (let i = 0; i < 6; i += 1) await page.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(() => zoomOf(page)).toBeLessThan(COMPACT_BELOW_ZOOM);
    await page.getByRole('button', { name: 'Fit all' }).click();
    await expect.poll(() => zoomOf(page)).toBeGreaterThanOrEqual(READABLE_ZOOM);
    await expectReadable(page, visible);

    // A run expands in place, by click (focus on its first generation) or Enter; Fit all folds it again.
    await runs.nth(1).click();
    await expect(page.locator(`[data-node-key="${key(frontier + 1)}"]`)).toBeFocused();
    await expect(page.locator(`[data-node-key="${key(generations - 1)}"]`)).toHaveCount(1);
    await expect(runs).toHaveCount(1);
    await runs.first().focus();
    await page.keyboard.press('Enter');
    await expect(runs).toHaveCount(0);
    await expect(page.locator(`[data-node-key="${key(1)}"]`)).toHaveCount(1);
    await page.getByRole('button', { name: 'Fit all' }).click();
    await expect(runs).toHaveCount(2);
    await expectReadable(page, visible);
  });
}
