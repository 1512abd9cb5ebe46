// A trainer's own API tokens in the dashboard: made and named at /tokens, shown once, used
// against the trainer API, and refused by it (401) the moment they are revoked from the page —
// whichever route bundle verified them before.
import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';

test('a trainer makes a token in the UI that the trainer API accepts, and revokes it: 401 from then on', async ({ page, request }) => {
  await signIn(page, 'trainer', '/');
  await page.getByTestId('home-trainer').getByRole('link', { name: 'your API tokens page' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API tokens' })).toBeVisible();

  const name = `e2e box ${Date.now()}`;
  await page.getByLabel('Token name').fill(name);
  await page.getByRole('button', { name: 'Create token' }).click();
  const shown = page.getByTestId('new-token');
  await expect(shown).toHaveText(/^envolve_\S+$/);
  const token = (await shown.textContent())!;
  const row = page.getByTestId('token-row').filter({ hasText: name });
  await expect(row).toContainText('active');

  const batch = () => request.get('/api/v1/trainer/batch?size=1', { headers: { authorization: `Bearer ${token}` } });
  expect((await batch()).status()).toBe(200);

  // Shown once: a reload lists the token by name, never the token itself.
  await page.reload();
  await expect(row).toContainText('active');
  await expect(page.getByTestId('new-token')).toHaveCount(0);
  expect(await page.content()).not.toContain(token);

  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await expect(row).toContainText('revoked');
  expect((await batch()).status()).toBe(401);
});

test('a reviewer has no tokens page', async ({ page }) => {
  await signIn(page, 'reviewer', '/');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' })).toHaveCount(0);
  await page.goto('/tokens');
  await expect(page.getByRole('heading', { name: 'Your role may not open this page' })).toBeVisible();
});
