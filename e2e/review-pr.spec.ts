// The review page read like a pull request: the sequence edit and the residual come first, the
// validator run details are folded behind their verdict line, data files are folded and counted,
// and one generation of the fixture lineage is reviewed from the keyboard. Approving with files not
// marked viewed asks once, naming how many, from the key and the button alike; a keyboard-only
// review reaches every file, the folded data files included, and approves with no wasted key: one
// to open the first file, one per file to mark it viewed (which moves on), one to approve. Each
// decision is undone afterwards, so the generation is left awaiting review for the other specs.
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { e2eFixture } from './fixtures/data.ts';

// Generation 3: the review spec only checks it still awaits review, which the undo restores.
function generation3(): string {
  const id = e2eFixture().generationIds[2];
  if (!id) throw new Error('the fixture has no generation 3');
  return id;
}

async function openForReview(page: Page, id: string) {
  await signIn(page, 'reviewer', `/generations/${id}`);
  await page.goto(`/generations/${id}`);
  await expect(page.getByTestId('generation-state')).toHaveText('awaiting-review');
  await expect(page.getByRole('form', { name: 'Decision' })).toHaveAttribute('data-keys-ready', '');
}

async function undoApproval(page: Page, id: string) {
  await expect(page.getByTestId('decision-done')).toContainText('approved');
  await expect(page.getByRole('form', { name: 'Decision' })).toHaveAttribute('data-keys-ready', '');
  await page.keyboard.press('u');
  // Undo leaves the generation open, awaiting review again.
  await expect(page).toHaveURL(new RegExp(`/generations/${id}\\?undone=`));
  await expect(page.getByTestId('generation-state')).toHaveText('awaiting-review');
}

test('approving with files not viewed asks once, naming how many, from the key and from the button', async ({ page }) => {
  const id = generation3();
  await openForReview(page, id);
  const files = page.getByTestId('residual-file');
  const total = await files.count();
  expect(total).toBeGreaterThan(1);
  // View one file, so the count named is of the files left, not of all of them.
  await page.keyboard.press('j');
  await page.keyboard.press('v');
  await expect(page.getByTestId('viewed-counter')).toContainText(`1 of ${total}`);
  const asked = `${total - 1} of ${total} files not viewed — approve anyway?`;

  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByTestId('approve-unviewed')).toContainText(asked);
  await page.getByRole('button', { name: 'Keep reviewing' }).click();
  await expect(page.getByTestId('approve-unviewed')).toBeHidden();
  await expect(page.getByTestId('generation-state')).toHaveText('awaiting-review');

  await page.keyboard.press('a');
  await expect(page.getByTestId('approve-unviewed')).toContainText(asked);
  await expect(page.getByTestId('decision-done')).toBeHidden();
  await page.keyboard.press('a');
  await undoApproval(page, id);
});

test('a reviewer views every file, data files included, and approves a fixture generation with one key per file and two more', async ({ page }) => {
  const id = generation3();
  await openForReview(page, id);

  // The review first: the sequence edit, then the residual, then the folded run details.
  const panels = await page.locator('section[id]').evaluateAll((sections) => sections.map((s) => s.id));
  expect(panels.indexOf('sequence')).toBeLessThan(panels.indexOf('residual'));
  expect(panels.indexOf('residual')).toBeLessThan(panels.indexOf('verdicts'));
  await expect(page.getByTestId('verdict-details')).not.toHaveAttribute('open', '');

  const allFiles = page.getByTestId('residual-file');
  const reviewFiles = page.locator('[data-testid="residual-file"][data-kind="review"]');
  const dataFiles = page.locator('[data-testid="residual-file"][data-kind="data"]');
  const reviewCount = await reviewFiles.count();
  const dataCount = await dataFiles.count();
  const total = reviewCount + dataCount;
  expect(reviewCount).toBeGreaterThan(0);
  if (dataCount > 0) {
    await expect(page.getByTestId('data-files')).toContainText(`${dataCount} data files`);
    await expect(dataFiles.first()).toBeHidden();
  }
  // The earlier test left a file viewed; this review starts from none (a data file's box is folded away).
  for (const box of await allFiles.getByLabel('Viewed').all()) {
    if (await box.isChecked()) await box.evaluate((input: HTMLInputElement) => input.click());
  }
  await expect(page.getByTestId('viewed-counter')).toContainText(`0 of ${total}`);

  const keys: string[] = [];
  const press = async (key: string) => {
    keys.push(key);
    await page.keyboard.press(key);
  };
  await press('j');
  for (let viewed = 1; viewed <= total; viewed++) {
    // The open file shows its diff, or for a large or binary one its sizes and hashes.
    await expect(page.locator('[data-testid="residual-file"]:has(button[aria-expanded="true"])')).toHaveCount(1);
    await expect(
      page
        .getByRole('table', { name: /^Diff of / })
        .or(page.getByText('sha256'))
        .first(),
    ).toBeVisible();
    await press('v');
    await expect(page.getByTestId('viewed-counter')).toContainText(`${viewed} of ${total}`);
  }
  for (const file of await allFiles.all()) await expect(file.getByLabel('Viewed')).toBeChecked();
  if (dataCount > 0) await expect(page.getByTestId('data-files')).toContainText(`(${dataCount} viewed)`);
  // Viewed files collapse.
  await expect(allFiles.locator('button[aria-expanded="true"]')).toHaveCount(0);
  // Every file viewed: nothing to ask, the key approves.
  await press('a');
  await expect(page.getByTestId('approve-unviewed')).toBeHidden();
  await expect(page.getByTestId('decision-done')).toContainText('approved');

  console.log(`review-pr: ${reviewCount} files reviewed and ${dataCount} data files viewed with ${keys.length} keys: ${keys.join(' ')}`);
  test.info().annotations.push({ type: 'keys', description: `${keys.length} keys for ${total} files: ${keys.join(' ')}` });
  expect(keys.length).toBeLessThanOrEqual(total + 2);

  await undoApproval(page, id);
});
