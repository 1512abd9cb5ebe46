// The reviewer's daily flow, keyboard only after signing in: home → Start, then three
// generations in a row (approve, request changes, approve), each decision staying on its
// generation with the next in the queue one key (n) away; the last one undone there, and a
// missed issue filed on it from the keyboard.
import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import path from 'node:path';
import { E2E_DATABASE_URL, REPO_ROOT, SCREENSHOT_DIR } from './paths.ts';

let ids: string[] = [];

test.beforeAll(() => {
  const out = execFileSync('npx', ['tsx', 'e2e/fixtures/review-flow-seed.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    encoding: 'utf8',
  });
  ids = (JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { generationIds: string[] }).generationIds;
  expect(ids).toHaveLength(3);
});

async function onGeneration(page: Page, id: string) {
  await expect(page).toHaveURL(new RegExp(`/generations/${id}(\\?|$)`));
  await expect(page.getByRole('form', { name: 'Decision' })).toHaveAttribute('data-keys-ready', '');
}

test('a reviewer reviews three generations in a row with the keyboard only, undoes the last and files a missed issue', async ({ page }) => {
  await signIn(page, 'reviewer', '/');
  const keys: string[] = [];
  const press = async (key: string) => {
    keys.push(key);
    await page.keyboard.press(key);
  };

  await expect(page.getByTestId('home-review')).toContainText('await review');
  await expect(page.getByTestId('start-review')).toHaveAttribute('data-keys-ready', '');
  await expect(page.getByTestId('start-review')).toContainText('keyboard flow G1');
  await press('s');

  // G1: open the first file, mark both files viewed (each v opens the next), approve.
  await onGeneration(page, ids[0]!);
  await press('j');
  await expect(page.getByRole('table', { name: /^Diff of / }).first()).toBeVisible();
  await press('v');
  await expect(page.getByTestId('viewed-counter')).toContainText('1 of 2');
  await press('v');
  await expect(page.getByTestId('viewed-counter')).toContainText('2 of 2');
  await press('a');

  // G1 stays open, saying what was decided, undoable; n opens G2: request changes with a comment.
  await onGeneration(page, ids[0]!);
  await expect(page.getByTestId('decision-done')).toContainText('Approved keyboard flow generation 1');
  await expect(page.getByTestId('decision-next')).toContainText('keyboard flow G2');
  await press('n');
  await onGeneration(page, ids[1]!);
  await press('c');
  await expect(page.getByLabel(/^Comment/)).toBeFocused();
  await page.keyboard.type('Make step 2 name the output file.');
  keys.push('<typed comment>');
  await press('Control+Enter');

  // G3: approve without viewing its files (asked once, a again approves), then undo, on G3 all along.
  await onGeneration(page, ids[1]!);
  await expect(page.getByTestId('decision-done')).toContainText('Requested changes on keyboard flow generation 2');
  await expect(page.getByTestId('decision-next')).toContainText('keyboard flow G3');
  await press('n');
  await onGeneration(page, ids[2]!);
  await press('a');
  await expect(page.getByTestId('approve-unviewed')).toContainText('2 of 2 files not viewed — approve anyway?');
  await press('a');
  await expect(page.getByTestId('decision-done')).toContainText('Approved keyboard flow generation 3');
  await expect(page.getByRole('form', { name: 'Decision' })).toHaveAttribute('data-keys-ready', '');
  await press('u');
  await onGeneration(page, ids[2]!);
  await expect(page.getByTestId('decision-undone')).toContainText('Undid your approval of keyboard flow generation 3');
  await expect(page.getByTestId('generation-state')).toHaveText('awaiting-review');

  // File a missed issue on G3 from the keyboard.
  await press('m');
  await expect(page.getByRole('heading', { name: 'File a missed issue' })).toBeVisible();
  await expect(page.getByLabel('What is wrong')).toBeFocused();
  await page.keyboard.type('Instruction never names the output file');
  await press('Tab');
  await page.keyboard.type('Step 2 writes a file the instruction does not name; the rubric should catch that.');
  keys.push('<typed title and description>');
  await press('Shift+Tab');
  await press('Enter');
  await expect(page.getByRole('status')).toContainText('Filed “Instruction never names the output file”');

  console.log(`keyboard review flow: ${keys.length} keys for 3 generations, an undo and a missed issue: ${keys.join(' ')}`);
  test.info().annotations.push({ type: 'keys', description: keys.join(' ') });
});

test('a reviewer files a missed issue from a diff line: the form opens pre-filled with the file, line and text, and returns to the line', async ({ page }) => {
  await signIn(page, 'reviewer', `/generations/${ids[2]}`);
  await onGeneration(page, ids[2]!);
  await page.keyboard.press('j');
  const diff = page.getByRole('table', { name: /^Diff of / }).first();
  await expect(diff).toBeVisible();
  const flag = diff.getByRole('link', { name: /^File missed issue on line \d+ of / }).first();
  const [, line, file] = /^File missed issue on line (\d+) of (.+)$/.exec((await flag.getAttribute('aria-label')) ?? '') ?? [];
  await flag.locator('xpath=ancestor::tr').hover();
  await flag.click();
  await expect(page.getByRole('heading', { name: 'File a missed issue' })).toBeVisible();
  await expect(page.getByLabel('What is wrong')).toHaveValue(`Problem in ${file}:${line}`);
  await expect(page.getByLabel('Description')).toHaveValue(new RegExp(`^In ${file!.replace(/[.]/g, '\\.')}, line ${line}:\n> `));
  await page.getByLabel('What is wrong').press('Enter');
  // Filed from a diff line: back on the review page with that file open and the line in view, marked.
  await expect(page).toHaveURL(new RegExp(`/generations/${ids[2]}\\?`));
  const marker = page.getByTestId('filed-on-line');
  await expect(marker).toContainText(`Missed issue filed on line ${line}.`);
  await expect(page.getByRole('table', { name: `Diff of ${file}` })).toBeVisible();
  await expect(marker).toBeInViewport();
  await marker.getByRole('link', { name: 'Open it' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Problem in ${file}:${line}`);
});

test('a short generation id in the URL opens the generation; an unknown one is a styled 404 with a way back', async ({ page }) => {
  await signIn(page, 'reviewer', '/');
  await page.goto(`/generations/${ids[0]!.slice(0, 14)}`);
  await expect(page).toHaveURL(new RegExp(`/generations/${ids[0]}$`));
  const missing = await page.goto('/generations/zzzzzzzzzzzz');
  expect(missing?.status()).toBe(404);
  await expect(page.getByTestId('not-found')).toBeVisible();
  await page.getByRole('link', { name: 'Home' }).last().click();
  await expect(page.getByTestId('home-review')).toBeVisible();
});

// Lightness 0–1 of a computed CSS colour: Chromium reports these as lab()/oklch(), else rgb().
function lightness(color: string): number {
  const perceptual = /^(ok)?(lab|lch)\(\s*([\d.]+)(%?)/.exec(color);
  if (perceptual) return Number(perceptual[3]) / (perceptual[4] || !perceptual[1] ? 100 : 1);
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

test('the theme follows the system setting: light by default, dark when the system is dark', async ({ page }) => {
  await signIn(page, 'reviewer', '/');
  const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const panel = () => page.getByTestId('home-review').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(lightness(await background())).toBeGreaterThan(0.9);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(lightness(await background())).toBeLessThan(0.25);
  expect(lightness(await panel())).toBeLessThan(0.3);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'home-dark.png'), fullPage: true });
  await page.goto(`/generations/${ids[2]}`);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'generation-dark.png'), fullPage: true });
});
