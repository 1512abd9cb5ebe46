// The review page read like a pull request: the sequence edit and the residual
// come first, the validator run details are folded behind their verdict line, data files are
// folded and counted, and one generation of the fixture lineage is reviewed from the keyboard:
// every file that is not data viewed and the decision made with no wasted key: one to open the
// first file, one per file to mark it viewed (which moves on), one to approve. The decision is
// undone afterwards, so the generation is left awaiting review for the other specs.
import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { e2eFixture } from './fixtures/data.ts';

test('a reviewer views every file that is not data and approves a fixture generation with one key per file and two more', async ({ page }) => {
  // Generation 3: the review spec only checks it still awaits review, which the undo restores.
  const id = e2eFixture().generationIds[2];
  if (!id) throw new Error('the fixture has no generation 3');
  await signIn(page, 'reviewer', `/generations/${id}`);
  await page.goto(`/generations/${id}`);
  await expect(page.getByTestId('generation-state')).toHaveText('awaiting-review');
  await expect(page.getByRole('form', { name: 'Decision' })).toHaveAttribute('data-keys-ready', '');

  // The review first: the sequence edit, then the residual, then the folded run details.
  const panels = await page.locator('section[id]').evaluateAll((sections) => sections.map((s) => s.id));
  expect(panels.indexOf('sequence')).toBeLessThan(panels.indexOf('residual'));
  expect(panels.indexOf('residual')).toBeLessThan(panels.indexOf('verdicts'));
  await expect(page.getByTestId('verdict-details')).not.toHaveAttribute('open', '');

  const reviewFiles = page.locator('[data-testid="residual-file"][data-kind="review"]');
  const dataFiles = page.locator('[data-testid="residual-file"][data-kind="data"]');
  const reviewCount = await reviewFiles.count();
  const dataCount = await dataFiles.count();
  expect(reviewCount).toBeGreaterThan(0);
  if (dataCount > 0) {
    await expect(page.getByTestId('data-files')).toContainText(`${dataCount} data files`);
    await expect(dataFiles.first()).toBeHidden();
  }

  const keys: string[] = [];
  const press = async (key: string) => {
    keys.push(key);
    await page.keyboard.press(key);
  };
  await press('j');
  for (let viewed = 1; viewed <= reviewCount; viewed++) {
    await expect(
      page
        .getByRole('table', { name: /^Diff of / })
        .or(page.getByText('sha256'))
        .first(),
    ).toBeVisible();
    await press('v');
    await expect(page.getByTestId('viewed-counter')).toContainText(`${viewed} of ${reviewCount + dataCount}`);
  }
  for (const file of await reviewFiles.all()) await expect(file.getByLabel('Viewed')).toBeChecked();
  // Viewed files collapse.
  await expect(reviewFiles.locator('button[aria-expanded="true"]')).toHaveCount(0);
  await press('a');
  await expect(page.getByTestId('decision-done')).toContainText('approved');

  console.log(`review-pr: ${reviewCount} files reviewed, ${dataCount} data files folded, ${keys.length} keys: ${keys.join(' ')}`);
  test.info().annotations.push({ type: 'keys', description: `${keys.length} keys for ${reviewCount} files: ${keys.join(' ')}` });
  expect(keys.length).toBeLessThanOrEqual(reviewCount + 2);

  // Undo leaves the generation open, awaiting review again.
  await expect(page.getByRole('form', { name: 'Decision' })).toHaveAttribute('data-keys-ready', '');
  await page.keyboard.press('u');
  await expect(page).toHaveURL(new RegExp(`/generations/${id}\\?undone=`));
  await expect(page.getByTestId('generation-state')).toHaveText('awaiting-review');
});
