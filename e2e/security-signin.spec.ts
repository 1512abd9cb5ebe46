// Issue 30: sign-in throttling that cannot be bypassed or aimed at an account, and the edge's last
// gaps. Each test names the finding it covers. Requests that must come from a client address of
// their own are sent from another loopback address (127.0.0.x) with Node's http client: the
// server trusts no proxy here, so the socket's peer is the client address.
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { USERS } from './fixtures/auth.ts';
import { e2eFixture } from './fixtures/data.ts';
import { E2E_DATABASE_URL, REPO_ROOT } from './paths.ts';
import { CONNECTIONS_CHECK_INTERVAL_MS, MAX_CONNECTIONS_PER_ADDRESS, REQUEST_TIMEOUT_MS } from '../lib/net/edge.ts';
import { limitMs, SQLITE_BUSY_MS, UNBUDGETED_STEP_MS } from '../test/budgets.ts';

const ACCOUNT_LIMIT = 5;
const PASSWORD = 'e2e signin target password';
const SIGN_IN = '/api/auth/sign-in/email';

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

function execute(sql: string, ...params: unknown[]): void {
  const db = new Database(E2E_DATABASE_URL.replace(/^file:/, ''), { timeout: SQLITE_BUSY_MS });
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

// A fresh loopback address per call: each test's attacker and victim are addresses no other test used.
let nextHost = 10 + Math.floor(Math.random() * 200);
const freshAddress = () => `127.0.${nextHost++ % 250}.${2 + Math.floor(Math.random() * 250)}`;

/** One request from `from` (a loopback address), outside any browser. */
function send(baseURL: string, from: string, method: string, path: string, headers: Record<string, string>, body = ''): Promise<Answer> {
  const url = new URL(path, baseURL);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: from,
        agent: false,
        headers: { 'content-length': Buffer.byteLength(body), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function signInJson(baseURL: string, from: string, email: string, password: string): Promise<Answer> {
  return send(baseURL, from, 'POST', SIGN_IN, { origin: baseURL, 'content-type': 'application/json' }, JSON.stringify({ email, password }));
}

function signInForm(baseURL: string, from: string, email: string, password: string): Promise<Answer> {
  return send(
    baseURL,
    from,
    'POST',
    SIGN_IN,
    { origin: baseURL, 'content-type': 'application/x-www-form-urlencoded' },
    new URLSearchParams({ email, password }).toString(),
  );
}

/** The session cookie a successful sign-in set, as a Cookie header. */
function sessionCookie(answer: Answer): string {
  const cookies = answer.headers['set-cookie'] ?? [];
  const session = cookies.map((c) => c.split(';')[0]!).find((c) => c.includes('session_token'));
  if (!session) throw new Error(`no session cookie in ${answer.status} ${answer.body}`);
  return session;
}

/** What a raw request line gets back (the status line and headers), for targets no HTTP client sends. */
function rawRequest(baseURL: string, lines: string[]): Promise<string> {
  const url = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (text.includes('\r\n\r\n')) socket.destroy();
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

const headersOf = (raw: string) => raw.split('\r\n\r\n', 1)[0]!.toLowerCase();

test('finding 1 (high): a form body cannot get round the account limit, nor can the attacker clear it by signing in himself', async ({ baseURL }) => {
  const from = freshAddress();
  const victim = newAccount('form-victim');
  const statuses: number[] = [];
  for (let attempt = 0; attempt <= ACCOUNT_LIMIT; attempt++) statuses.push((await signInJson(baseURL!, from, victim, `wrong json ${attempt}`)).status);
  expect(statuses).toEqual([...Array(ACCOUNT_LIMIT).fill(401), 429]);
  // The locked account with the right password, as a form body.
  const form = await signInForm(baseURL!, from, victim, PASSWORD);
  expect(form.status, form.body).toBe(429);
  expect(form.headers['set-cookie'] ?? []).toEqual([]);

  // Wrong form guesses against a second account from three addresses, the attacker signing in to his own account after every four.
  const target = newAccount('form-target');
  const own = newAccount('form-attacker');
  const addresses = [freshAddress(), freshAddress(), freshAddress()];
  const guesses: number[] = [];
  for (let attempt = 0; attempt < 12; attempt++) {
    const address = addresses[Math.floor(attempt / 4)]!;
    guesses.push((await signInForm(baseURL!, address, target, `wrong form ${attempt}`)).status);
    if (attempt % 4 === 3) expect((await signInForm(baseURL!, address, own, PASSWORD)).status).toBe(200);
  }
  expect(guesses).toEqual(Array(12).fill(401));
  // Twelve wrong guesses, four from each address: one more from the first address is the fifth from it, the sixth is refused.
  expect((await signInForm(baseURL!, addresses[0]!, target, 'wrong form 12')).status).toBe(401);
  expect((await signInForm(baseURL!, addresses[0]!, target, PASSWORD)).status).toBe(429);
  const [targetId] = query<{ id: string }>('SELECT "id" FROM "User" WHERE "email" = ?', target);
  expect(query('SELECT 1 FROM "AuditEvent" WHERE "action" = ? AND "subjectId" = ?', 'auth.sign-in-throttled', targetId!.id)).toHaveLength(1);
});

test('finding 2 (medium): a lockout is aimed at nobody: the right password from another address signs in, and set-password clears the lock', async ({
  baseURL,
}) => {
  const email = newAccount('aimed', 'admin');
  const attacker = freshAddress();
  for (let attempt = 0; attempt < ACCOUNT_LIMIT; attempt++) expect((await signInJson(baseURL!, attacker, email, `guess ${attempt}`)).status).toBe(401);
  // Even the right password is refused from the failing address.
  expect((await signInJson(baseURL!, attacker, email, PASSWORD)).status).toBe(429);
  const owner = await signInJson(baseURL!, freshAddress(), email, PASSWORD);
  expect(owner.status, owner.body).toBe(200);

  envolve('users', 'set-password', '--email', email, '--password', 'e2e signin second password');
  const afterReset = await signInJson(baseURL!, attacker, email, 'e2e signin second password');
  expect(afterReset.status, afterReset.body).toBe(200);
});

test("finding 3 (medium): change-password refuses a password made of the account's own email", async ({ baseURL }) => {
  const email = newAccount('change');
  const from = freshAddress();
  const cookie = sessionCookie(await signInJson(baseURL!, from, email, PASSWORD));
  const change = await send(
    baseURL!,
    from,
    'POST',
    '/api/auth/change-password',
    { origin: baseURL!, cookie, 'content-type': 'application/json' },
    JSON.stringify({ currentPassword: PASSWORD, newPassword: email }),
  );
  expect(change.status, change.body).toBe(400);
  expect(JSON.parse(change.body)).toMatchObject({ message: expect.stringContaining('too easy to guess') });
});

test('finding 4: change-password is throttled, verify-password is not served over HTTP, session lists carry no token', async ({ baseURL }) => {
  const email = newAccount('oracle');
  const from = freshAddress();
  const cookie = sessionCookie(await signInJson(baseURL!, from, email, PASSWORD));
  const headers = { origin: baseURL!, cookie, 'content-type': 'application/json' };
  const statuses: number[] = [];
  for (let attempt = 0; attempt <= ACCOUNT_LIMIT; attempt++) {
    const body = JSON.stringify({ currentPassword: `wrong current ${attempt}`, newPassword: 'a fine new password for e2e' });
    statuses.push((await send(baseURL!, from, 'POST', '/api/auth/change-password', headers, body)).status);
  }
  expect(statuses).toEqual([...Array(ACCOUNT_LIMIT).fill(400), 429]);

  const verify = await send(baseURL!, freshAddress(), 'POST', '/api/auth/verify-password', headers, JSON.stringify({ password: PASSWORD }));
  expect(verify.status, verify.body).toBe(404);

  const sessions = await send(baseURL!, from, 'GET', '/api/auth/list-sessions', { cookie });
  expect(sessions.status).toBe(200);
  const list = JSON.parse(sessions.body) as Record<string, unknown>[];
  expect(list.length).toBeGreaterThan(0);
  for (const session of list) expect(session).not.toHaveProperty('token');
});

test('finding 4: a deactivated account answers a failed sign-in exactly as an unknown one', async ({ page, baseURL }) => {
  const email = newAccount('gone');
  await deactivate(page, email);
  const from = freshAddress();
  const deactivated = await signInJson(baseURL!, from, email, 'a wrong password here');
  const unknown = await signInJson(baseURL!, from, `nobody-${Date.now()}@e2e.envolve.test`, 'a wrong password here');
  expect(deactivated.status).toBe(401);
  expect(JSON.parse(deactivated.body)).toEqual(JSON.parse(unknown.body));
  expect(JSON.parse(unknown.body)).toMatchObject({ code: 'INVALID_EMAIL_OR_PASSWORD' });
});

test('finding 4: a typed email never reaches the audit log as text', async ({ baseURL }) => {
  const forged = 'ada@e2e.envolve.test granted the admin role to mallory';
  const from = freshAddress();
  for (let attempt = 0; attempt <= ACCOUNT_LIMIT; attempt++) await signInJson(baseURL!, from, forged, 'whatever it is');
  expect((await signInJson(baseURL!, from, forged, 'whatever it is')).status).toBe(429);
  const rows = query<{ actorEmail: string; subjectId: string; after: string }>(
    'SELECT "actorEmail", "subjectId", "after" FROM "AuditEvent" WHERE "action" = ? AND "after" LIKE ?',
    'auth.sign-in-throttled',
    `%${from}%`,
  );
  expect(rows).toHaveLength(1);
  for (const row of rows) expect(JSON.stringify(row)).not.toContain('mallory');
});

test('finding 4: the edge refuses targets that are not a path and a malformed router state, with security headers', async ({ baseURL }) => {
  const port = new URL(baseURL!).port;
  for (const line of ['GET * HTTP/1.1', 'OPTIONS * HTTP/1.1', `GET http://evil.example/sign-in HTTP/1.1`]) {
    const raw = await rawRequest(baseURL!, [line, `Host: 127.0.0.1:${port}`, 'Connection: close']);
    expect(raw.split('\r\n', 1)[0], line).toBe('HTTP/1.1 400 Bad Request');
    expect(raw).not.toContain('evil.example');
  }
  for (const tree of ['not json', '%7B%7D', encodeURIComponent('["",{}, 1, 2, 3, 4, 5, 6]')]) {
    const answer = await send(baseURL!, '127.0.0.1', 'GET', '/sign-in', { rsc: '1', 'next-router-state-tree': tree });
    expect(answer.status, tree).toBe(400);
  }
  const refused = [
    await send(baseURL!, '127.0.0.1', 'GET', '/api/generations/%ZZ/comments', {}),
    await send(baseURL!, '127.0.0.1', 'POST', SIGN_IN, { 'content-type': 'application/json', 'content-length': String(20 * 1024 * 1024) }),
    await send(baseURL!, '127.0.0.1', 'GET', '/favicon.ico', {}),
  ];
  expect(refused.map((r) => r.status)).toEqual([400, 413, 404]);
  for (const answer of refused) {
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  }
  const chunked = await rawRequest(baseURL!, [`POST ${SIGN_IN} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Transfer-Encoding: chunked', 'Connection: close']);
  expect(chunked.split('\r\n', 1)[0]).toBe('HTTP/1.1 411 Length Required');
  expect(headersOf(chunked)).toContain('x-content-type-options: nosniff');
});

test('finding 4: a slow body is cut off at the request time limit, and one address holds at most its share of connections', async ({ baseURL }) => {
  // The slow request's cut-off (its time limit, then at most one check for requests past it), and the
  // address's connections opened one after the other and the extra one's refusal, each a loopback step.
  test.setTimeout(limitMs(REQUEST_TIMEOUT_MS, CONNECTIONS_CHECK_INTERVAL_MS, (MAX_CONNECTIONS_PER_ADDRESS + 1) * UNBUDGETED_STEP_MS));
  const url = new URL(baseURL!);
  const from = freshAddress();
  const open = (): Promise<net.Socket> =>
    new Promise((resolve, reject) => {
      const socket = net.connect({ port: Number(url.port), host: url.hostname, localAddress: from }, () => resolve(socket));
      socket.on('error', reject);
    });
  const slow = await open();
  const started = Date.now();
  const closed = new Promise<string>((resolve) => {
    let text = '';
    slow.on('data', (d: Buffer) => (text += d.toString('latin1')));
    slow.on('close', () => resolve(text));
  });
  slow.write(`POST ${SIGN_IN} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);

  const held: net.Socket[] = [];
  for (let i = 1; i < MAX_CONNECTIONS_PER_ADDRESS; i++) held.push(await open());
  const extra = await open();
  const refusedText = await new Promise<string>((resolve) => {
    let text = '';
    extra.on('data', (d: Buffer) => (text += d.toString('latin1')));
    extra.on('close', () => resolve(text));
    extra.write(`GET /api/health HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
  });
  expect(refusedText.split('\r\n', 1)[0]).toBe('HTTP/1.1 429 Too Many Requests');
  for (const socket of held) socket.destroy();

  const answer = await closed;
  expect(Date.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS + 15_000);
  expect(answer.split('\r\n', 1)[0]).toBe('HTTP/1.1 408 Request Timeout');
});

test('finding 4: a server action without an Origin, or with an https Origin of the same host, is refused', async ({ page, playwright, baseURL }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(USERS.reviewer.email);
  await page.getByLabel('Password').fill(USERS.reviewer.password);
  const [action] = await Promise.all([
    page.waitForRequest((r) => r.method() === 'POST' && r.headers()['next-action'] !== undefined),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  await expect(page.getByTestId('signed-in-user')).toBeVisible();
  const replay = { ...(await action.allHeaders()) };
  for (const name of Object.keys(replay)) if (name.startsWith(':') || ['origin', 'cookie', 'content-length', 'host'].includes(name)) delete replay[name];
  const body = action.postDataBuffer()!;
  const anonymous = await playwright.request.newContext({ baseURL });
  for (const origin of [undefined, baseURL!.replace('http://', 'https://')]) {
    const response = await anonymous.post('/sign-in', { headers: origin ? { ...replay, origin } : replay, data: body, maxRedirects: 0 });
    expect(response.status(), `origin ${origin}`).toBe(403);
    expect(response.headers()['set-cookie'] ?? '').not.toContain('session_token');
  }
  await anonymous.dispose();
});

test('finding 4: /api/metrics leaves held-out lineages out for a trainer token', async ({ request }) => {
  const { lineageId } = e2eFixture();
  const token = (JSON.parse(envolve('tokens', 'create', '--user', USERS.trainer.email, '--name', 'e2e metrics', '--json')) as { token: string }).token;
  execute('UPDATE "Lineage" SET "heldOutSet" = ? WHERE "id" = ?', 'e2e-held-out', lineageId);
  try {
    const trainer = await (await request.get('/api/metrics', { headers: { authorization: `Bearer ${token}` } })).text();
    expect(trainer).toContain('envolve_lineage_generations');
    expect(trainer).not.toContain(lineageId);
    const leadToken = (JSON.parse(envolve('tokens', 'create', '--user', USERS.lead.email, '--name', 'e2e metrics lead', '--json')) as { token: string }).token;
    const lead = await (await request.get('/api/metrics', { headers: { authorization: `Bearer ${leadToken}` } })).text();
    expect(lead).toContain(lineageId);
  } finally {
    execute('UPDATE "Lineage" SET "heldOutSet" = NULL WHERE "id" = ?', lineageId);
  }
});

test('info: reactivating an account does not revive its API tokens', async ({ page, request }) => {
  const email = newAccount('revive', 'trainer');
  const token = (JSON.parse(envolve('tokens', 'create', '--user', email, '--name', 'e2e revive', '--json')) as { token: string }).token;
  const headers = { authorization: `Bearer ${token}` };
  expect((await request.get('/api/metrics', { headers })).status()).toBe(200);
  await deactivate(page, email);
  expect((await request.get('/api/metrics', { headers })).status()).toBe(401);
  const row = page.getByTestId('user-row').filter({ hasText: email });
  await row.getByRole('button', { name: `Reactivate ${email}` }).click();
  await expect(row.getByRole('button', { name: `Deactivate ${email}` })).toBeVisible();
  expect((await request.get('/api/metrics', { headers })).status()).toBe(401);
});

async function deactivate(page: Page, email: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto('/sign-in?next=%2Fadmin%2Fusers');
  await page.getByLabel('Email').fill(USERS.admin.email);
  await page.getByLabel('Password').fill(USERS.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const row = page.getByTestId('user-row').filter({ hasText: email });
  await row.getByRole('button', { name: `Deactivate ${email}` }).click();
  await expect(row.getByRole('button', { name: `Reactivate ${email}` })).toBeVisible();
}
