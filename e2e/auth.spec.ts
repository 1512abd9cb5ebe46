import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signIn, USERS, type E2eUser } from './fixtures/auth.ts';
import { SCREENSHOT_DIR } from './paths.ts';

const screenshot = (name: string) => path.join(SCREENSHOT_DIR, `${name}.png`);

test('a signed-out visitor is sent to sign in, and back to the page afterwards', async ({ page }) => {
  await page.goto('/environments?q=awk');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fenvironments%3Fq%3Dawk$/);
  await expect(page.getByRole('heading', { name: 'Sign in to Envolve' })).toBeVisible();
  await page.screenshot({ path: screenshot('sign-in'), fullPage: true });

  // Keyboard only: the email field has focus, Tab moves on, Enter submits.
  await page.keyboard.type(USERS.reviewer.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(USERS.reviewer.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/environments\?q=awk$/);
});

test('a wrong password shows an error and keeps the visitor signed out', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(USERS.lead.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Next's route announcer is an (empty) alert too.
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toHaveText('Wrong email or password.');
  await expect(page.getByLabel('Email')).toHaveValue(USERS.lead.email);
  await page.screenshot({ path: screenshot('sign-in-error'), fullPage: true });
  await page.goto('/environments');
  await expect(page).toHaveURL(/\/sign-in/);
});

for (const who of Object.keys(USERS) as E2eUser[]) {
  test(`${who} signs in and sees their name and role in the header`, async ({ page }) => {
    await signIn(page, who, '/');
    await expect(page.getByTestId('signed-in-user')).toContainText(USERS[who].name);
    await expect(page.getByTestId('signed-in-role')).toHaveText(USERS[who].role);
    // Everyone lands on a home page that works for their role: its work, with counts.
    await expect(page.getByRole('heading', { level: 1, name: `Hello, ${USERS[who].name}` })).toBeVisible();
    const card = {
      trainer: 'home-trainer',
      annotator: 'home-labelling',
      lead: 'home-lead',
      admin: 'home-lead',
      reviewer: 'home-review',
      reviewer2: 'home-review',
    }[who];
    await expect(page.getByTestId(card)).toBeVisible();
    if (who === 'trainer') {
      // Trainers use the API with tokens: the home page says how, and a dashboard page is refused with a way back that works.
      await expect(page.getByTestId('home-trainer').getByRole('link', { name: 'your API tokens page' })).toHaveAttribute('href', '/tokens');
      await page.goto('/environments');
      await expect(page.getByRole('heading', { name: 'Your role may not open this page' })).toBeVisible();
      await page.getByRole('link', { name: 'Back to your home page' }).click();
      await expect(page.getByTestId('home-trainer')).toBeVisible();
    }
    if (who === 'admin') await page.locator('header').screenshot({ path: screenshot('header-admin') });
  });
}

test('signing out ends the session', async ({ page }) => {
  await signIn(page, 'lead');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto('/environments');
  await expect(page).toHaveURL(/\/sign-in/);
});

test('an annotator is refused the audit log; a lead reads it', async ({ page, browser }) => {
  await signIn(page, 'annotator', '/calibration');
  const refused = await page.goto('/audit');
  expect(refused?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: 'Your role may not open this page' })).toBeVisible();

  const lead = await browser.newPage();
  await signIn(lead, 'lead');
  const allowed = await lead.goto('/audit');
  expect(allowed?.status()).toBe(200);
  await expect(lead.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await lead.close();
});

test('the raw API: no session is 401, a reviewer on an admin route is 403, an admin gets 200', async ({ page, playwright, baseURL }) => {
  const anonymous = await playwright.request.newContext({ baseURL });
  const unauthenticated = await anonymous.get('/api/users');
  expect(unauthenticated.status()).toBe(401);
  expect(await unauthenticated.json()).toMatchObject({ error: 'unauthenticated' });
  await anonymous.dispose();

  await signIn(page, 'reviewer');
  const forbidden = await page.request.get('/api/users');
  expect(forbidden.status()).toBe(403);
  expect(await forbidden.json()).toMatchObject({ error: 'forbidden' });

  await signIn(page, 'admin');
  const allowed = await page.request.get('/api/users');
  expect(allowed.status()).toBe(200);
  const { users } = (await allowed.json()) as { users: { email: string }[] };
  expect(users.map((u) => u.email)).toContain(USERS.annotator.email);
});

test('an admin creates an account and changes its role, and the audit log shows both', async ({ page }) => {
  await signIn(page, 'admin', '/admin/users');
  const email = `new-${Date.now()}@e2e.envolve.test`;
  await page.getByLabel('New user email').fill(email);
  await page.getByLabel('New user name').fill('Nia New');
  await page.getByLabel('New user role').selectOption('annotator');
  await page.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByTestId('created-password')).toBeVisible();

  const row = page.getByTestId('user-row').filter({ hasText: email });
  await row.getByLabel(`Role of ${email}`).selectOption('reviewer');
  await row.getByRole('button', { name: 'Change role' }).click();
  await expect(row.getByLabel(`Role of ${email}`)).toHaveValue('reviewer');
  await expect(page.getByRole('status')).toContainText('reviewer');

  await page.goto('/audit?subjectType=user');
  const entries = page.getByTestId('audit-row').filter({ hasText: email });
  await expect(entries.filter({ hasText: 'user.create' })).toHaveCount(1);
  await expect(entries.filter({ hasText: 'user.role' })).toContainText('annotator');
  await expect(entries.filter({ hasText: 'user.role' })).toContainText('reviewer');
  await page.screenshot({ path: screenshot('audit'), fullPage: true });
});
