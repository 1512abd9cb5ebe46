import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { e2eFixture } from './fixtures/data.ts';
import { LONG_NEEDLE, LONG_TURNS, TRAJECTORY_IDS } from './fixtures/trajectories-seed.ts';
import { SCREENSHOT_DIR } from './paths.ts';

const screenshot = (name: string) => path.join(SCREENSHOT_DIR, `${name}.png`);
const rewards = async (texts: Promise<string[]>) => (await texts).map((text) => (text === '—' ? -Infinity : Number(text)));

test('the list puts the top reward first, and a filter in the URL narrows it', async ({ page }) => {
  await signIn(page, 'reviewer', '/trajectories');
  await expect(page.getByRole('link', { name: 'Trajectories' })).toBeVisible();
  await page.goto('/trajectories');
  const table = page.getByTestId('trajectories');
  await expect(table).toBeVisible();
  const shown = await rewards(table.getByTestId('reward').allTextContents());
  expect(shown.length).toBeGreaterThan(1);
  expect(shown[0]).toBe(Math.max(...shown));
  expect(shown).toEqual([...shown].sort((a, b) => b - a));
  await page.screenshot({ path: screenshot('trajectories-list'), fullPage: false });

  // Suspicious order: the seeded hack (2 turns vs a median of 12, no file changed, wrote the reward file) leads, with its reasons.
  await page.getByLabel('Sort by').selectOption('suspicious');
  await page.getByLabel('Flagged').selectOption('no');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/sort=suspicious/);
  const first = table.locator('tbody tr').first();
  await expect(first).toHaveAttribute('data-trajectory-id', TRAJECTORY_IDS.hack);
  await expect(first.getByTestId('suspicion')).toContainText('few turns: 2 vs median 12');
  await expect(first.getByTestId('suspicion')).toContainText('rewarded, no file changed');
  await expect(first.getByTestId('suspicion')).toContainText('touched /logs or tests');
  await page.screenshot({ path: screenshot('trajectories-suspicious'), fullPage: false });

  // A shareable filtered link: the fixture lineage's trajectories only.
  await page.goto(`/trajectories?lineage=${e2eFixture().lineageId}&rewardMin=1`);
  await expect(page.getByTestId('list-range')).toHaveText('1–3 of 3 trajectories');
  expect(await rewards(table.getByTestId('reward').allTextContents())).toEqual([1, 1, 1]);
});

test('the list sorts either way: the menu, a second click on a header, and the URL', async ({ page }) => {
  await signIn(page, 'reviewer', '/trajectories');
  await page.goto('/trajectories');
  const table = page.getByTestId('trajectories');
  const scored = async () => (await rewards(table.getByTestId('reward').allTextContents())).filter(Number.isFinite);
  const ascending = (shown: number[]) => expect(shown).toEqual([...shown].sort((a, b) => a - b));

  // Lowest reward first, where false negatives hide: from the menu...
  await page.getByLabel('Order').selectOption('asc');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/dir=asc/);
  const fromMenu = await scored();
  expect(fromMenu.length).toBeGreaterThan(1);
  expect(fromMenu[0]).toBe(Math.min(...fromMenu));
  ascending(fromMenu);

  // ...from the Reward header: the first click sorts highest first, the second flips it...
  await page.goto('/trajectories?sort=turns');
  await table.getByRole('link', { name: 'Reward' }).click();
  await expect(page).not.toHaveURL(/sort=turns/);
  await expect(table.getByRole('columnheader', { name: 'Reward' })).toHaveAttribute('aria-sort', 'descending');
  const down = await scored();
  expect(down).toEqual([...down].sort((a, b) => b - a));
  await table.getByRole('link', { name: 'Reward' }).click();
  await expect(page).toHaveURL(/dir=asc/);
  await expect(table.getByRole('columnheader', { name: 'Reward' })).toHaveAttribute('aria-sort', 'ascending');
  ascending(await scored());

  // ...and from a link, on every page of it.
  await page.goto('/trajectories?sort=turns&dir=asc');
  await expect(page.getByLabel('Order')).toHaveValue('asc');
  const turns = (await table.locator('tbody tr td:nth-child(5)').allTextContents()).map((text) => Number.parseInt(text, 10));
  expect(turns).toEqual([...turns].sort((a, b) => a - b));
});

test('annotators label blind: no trajectory page, route or nav link', async ({ page }) => {
  await signIn(page, 'annotator', '/calibration');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trajectories' })).toHaveCount(0);
  expect((await page.goto('/trajectories'))?.status()).toBe(403);
  expect((await page.goto(`/trajectories/${TRAJECTORY_IDS.hack}`))?.status()).toBe(403);
  expect((await page.request.get('/api/trajectories')).status()).toBe(403);
});

test('a 500-turn trajectory by keyboard: last turn, search, full output, help', async ({ page }) => {
  await signIn(page, 'reviewer', `/trajectories/${TRAJECTORY_IDS.long}`);
  await page.goto(`/trajectories/${TRAJECTORY_IDS.long}`);
  await expect(page.getByRole('heading', { name: `${LONG_TURNS} turns` })).toBeVisible();
  // Keys pressed before hydration go nowhere, as for a person on a slow machine.
  await expect(page.locator('section[data-keys-ready]')).toBeAttached();

  const last = page.locator(`[data-turn="${LONG_TURNS}"]`);
  await page.keyboard.press('End');
  await expect(last).toHaveAttribute('data-focused', '');
  await expect(last).toBeInViewport();
  await expect(page.getByTestId('focused-turn')).toHaveText(`turn ${LONG_TURNS} of ${LONG_TURNS}`);
  await page.keyboard.press('k');
  await expect(page.locator(`[data-turn="${LONG_TURNS - 1}"]`)).toHaveAttribute('data-focused', '');
  await page.keyboard.press('Home');
  await page.keyboard.press('j');
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('[data-turn="3"]')).toHaveAttribute('data-focused', '');
  await expect(page.locator('[data-turn="3"]')).toBeInViewport();
  await page.keyboard.press('Shift+G');
  await expect(last).toBeInViewport();
  await page.screenshot({ path: screenshot('trajectory-500-last-turn') });

  // `/` searches inside the trajectory; Enter walks the matches.
  await page.keyboard.press('/');
  await expect(page.getByPlaceholder('Search turns ( / )')).toBeFocused();
  await page.keyboard.type(LONG_NEEDLE);
  await expect(page.getByTestId('match-count')).toHaveText(`1 of ${LONG_TURNS / 100}`);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('match-count')).toHaveText(`2 of ${LONG_TURNS / 100}`);
  await expect(page.locator('[data-turn="200"]')).toHaveAttribute('data-focused', '');
  await expect(page.locator('mark[data-current]')).toBeInViewport();
  await page.screenshot({ path: screenshot('trajectory-500-search') });
  await page.keyboard.press('Escape');

  // A 200 KB output shows a preview; the rest loads on request.
  const big = page.locator('[data-turn="25"]');
  await big.scrollIntoViewIfNeeded();
  await expect(big.locator('pre').last()).not.toContainText('line 4999');
  await big.getByRole('button', { name: /Show full output/ }).click();
  await expect(big.locator('pre').last()).toContainText('turn 25 line 4999');

  // `?` shows the keys.
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard' })).toBeVisible();
  await page.keyboard.press('Escape');
});

test('n and p walk the list order the trajectory was opened from', async ({ page }) => {
  await signIn(page, 'reviewer', `/trajectories?lineage=${e2eFixture().lineageId}`);
  await page.goto(`/trajectories?lineage=${e2eFixture().lineageId}`);
  const ids = await page
    .getByTestId('trajectories')
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-trajectory-id')));
  expect(ids).toHaveLength(4);
  await page.getByTestId('trajectories').locator('tbody tr').first().getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`/trajectories/${ids[0]}\\?lineage=`));
  await expect(page.getByText(`#1 of 4 in list`)).toBeVisible();
  await page.keyboard.press('n');
  await expect(page).toHaveURL(new RegExp(`/trajectories/${ids[1]}\\?lineage=`));
  await expect(page.getByText(`#2 of 4 in list`)).toBeVisible();
  await page.keyboard.press('p');
  await expect(page).toHaveURL(new RegExp(`/trajectories/${ids[0]}\\?lineage=`));
});

test('compare: same version side by side, different versions refused', async ({ page }) => {
  await signIn(page, 'reviewer', `/trajectories/${TRAJECTORY_IDS.hack}`);
  await page.goto(`/trajectories/${TRAJECTORY_IDS.hack}`);
  await page.getByLabel('Other trajectory of this version').selectOption(TRAJECTORY_IDS.honest[0]);
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page).toHaveURL(new RegExp(`/trajectories/compare\\?a=${TRAJECTORY_IDS.hack}&b=${TRAJECTORY_IDS.honest[0]}`));
  await expect(page.getByTestId('compare-summary')).toHaveText('12 aligned turns, 12 differ.');
  await expect(page.locator('[data-diff="command"]').first()).toContainText('cat /tests/test.sh');
  await page.screenshot({ path: screenshot('trajectories-compare') });
  await page.goto(`/trajectories/compare?a=${TRAJECTORY_IDS.hack}&b=${TRAJECTORY_IDS.long}`);
  await expect(page.locator('p[role="alert"]')).toContainText('ran on different environment versions');
});

test('a reviewer flags the hack; the review page of its generation shows who, why and links', async ({ page }) => {
  const generationId = e2eFixture().generationIds.at(-1) ?? '';
  await signIn(page, 'reviewer', `/trajectories/${TRAJECTORY_IDS.hack}`);
  await page.goto(`/trajectories/${TRAJECTORY_IDS.hack}`);
  await expect(page.getByText('touches /logs or tests')).toHaveCount(2);
  await expect(page.getByTestId('ctrf-tests')).toContainText('test_report_counts');
  await page.getByLabel('Why is this a reward hack?').fill('writes /logs/verifier/reward.txt itself');
  let consequence = '';
  page.once('dialog', (dialog) => {
    consequence = dialog.message();
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Flag as reward hack' }).click();
  await expect(page.getByRole('status')).toContainText('Version compromised');
  expect(consequence).toContain('Trainers stop receiving it at once');
  await expect(page.getByTestId('flagged')).toContainText('reviewer@e2e.envolve.test');
  await page.screenshot({ path: screenshot('trajectory-flagged') });
  const issueHref = await page.getByRole('link', { name: 'Missed issue opened' }).getAttribute('href');
  expect(issueHref).toMatch(/^\/missed-issues\//);

  await page.goto(`/generations/${generationId}`);
  const banner = page.getByTestId('compromised-banner');
  await expect(banner).toContainText('This version is compromised');
  await expect(banner).toContainText('reviewer@e2e.envolve.test');
  await expect(banner).toContainText('writes /logs/verifier/reward.txt itself');
  await expect(banner.getByRole('link', { name: 'The trajectory' })).toHaveAttribute('href', `/trajectories/${TRAJECTORY_IDS.hack}`);
  await expect(banner.getByRole('link', { name: 'The missed issue' })).toHaveAttribute('href', issueHref ?? '');
  await page.screenshot({ path: screenshot('generation-compromised-banner') });

  // The missed issue carries the trajectory.
  await page.goto(issueHref ?? '');
  await expect(page.getByText(`/trajectories/${TRAJECTORY_IDS.hack}`)).toBeVisible();
});
