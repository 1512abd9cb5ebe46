// The trainer API (v1): a trainer's API token is accepted, a reviewer's session is refused, a
// served environment downloads as a Harbor task tarball, and a reported group is stored. A version
// that is not served answers 410 (flagged), 403 (held out) or 404 (unknown).
import { execFileSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { signIn, USERS } from './fixtures/auth.ts';
import { e2eFixture } from './fixtures/data.ts';
import { E2E_DATABASE_URL, REPO_ROOT } from './paths.ts';
import { SQLITE_BUSY_MS } from '../test/budgets.ts';

function trainerToken(policies = 'trainer,e2e-trainer-api'): string {
  const out = execFileSync(
    'node',
    ['bin/envolve.mjs', 'tokens', 'create', '--user', USERS.trainer.email, '--name', 'e2e trainer', '--policy', policies, '--json'],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
      encoding: 'utf8',
    },
  );
  return (JSON.parse(out) as { token: string }).token;
}

test('a reviewer session is refused by the trainer API', async ({ page }) => {
  await signIn(page, 'reviewer');
  const response = await page.request.get('/api/v1/trainer/batch?size=2');
  expect(response.status()).toBe(403);
  const report = await page.request.post('/api/v1/trainer/groups', { data: { versionId: e2eFixture().seedVersionId, rewards: [1] } });
  expect(report.status()).toBe(403);
});

test('a trainer token gets a batch from the frontiers, downloads a task and reports a group', async ({ request }) => {
  const headers = { authorization: `Bearer ${trainerToken()}` };
  expect((await request.get('/api/v1/trainer/batch?size=2')).status()).toBe(401);

  // Large enough to pass over every lineage at least once: each pass serves each lineage once.
  const batch = await request.get('/api/v1/trainer/batch?size=1024&seed=1', { headers });
  expect(batch.status()).toBe(200);
  const { environments } = (await batch.json()) as {
    environments: { versionId: string; lineageId: string; generation: number; policy: string; released_by: string | null; taskUrl: string }[];
  };
  expect(environments).toHaveLength(1024);
  const fixture = e2eFixture();
  expect(environments.map((e) => e.lineageId)).toContain(fixture.lineageId);

  const served = environments.find((e) => e.lineageId === fixture.lineageId)!;
  // The fixture lineage serves its seed: no policy released it, and its pass count is the gating policy's (trainer, the default).
  expect(served).toMatchObject({ generation: 0, policy: 'trainer', released_by: null });
  const task = await request.get(served.taskUrl, { headers });
  expect(task.status()).toBe(200);
  expect(task.headers()['content-type']).toBe('application/gzip');
  expect(task.headers()['x-envolve-version']).toBe(served.versionId);
  const tar = gunzipSync(await task.body()).toString('latin1');
  for (const name of ['task.toml', 'instruction.md', 'environment/Dockerfile', 'tests/test.sh', 'envolve.json']) expect(tar).toContain(name);

  const bad = await request.post('/api/v1/trainer/groups', { headers, data: { versionId: served.versionId, rewards: 'eight' } });
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { message: string }).message).toContain('rewards');

  // What a timeout is worth is the server's to say: a trainer naming it is refused, by field.
  const priced = await request.post('/api/v1/trainer/groups', {
    headers,
    data: { versionId: served.versionId, rewards: [null, null, null, null, null, null, 1, 1], timeoutReward: 1 },
  });
  expect(priced.status()).toBe(400);
  expect(((await priced.json()) as { message: string }).message).toMatch(/^timeoutReward: /);

  // A version outside every lineage: reporting on it moves no frontier the other specs rely on. Its
  // own policy name, so that it is no checkpoint of the trainer policy other specs gate on (the
  // newest version of a policy is that policy's across every lineage).
  const versionId = fixture.examples['dependency-audit']!;
  const reported = await request.post('/api/v1/trainer/groups', {
    headers,
    data: { versionId, rewards: [1, 0, 1, null, 1, 1, 0, 1], policy: 'e2e-trainer-api', policyVersion: 'step-1' },
  });
  expect(reported.status()).toBe(201);
  expect(await reported.json()).toMatchObject({ passes: 5, size: 8, timeouts: 1, advanced: [] });

  // One Idempotency-Key per group: the same key and body answer the first group again (200, marked a
  // replay), the same key with another body is 409; a policy Envolve runs itself is refused whatever the token.
  const keyed = { ...headers, 'idempotency-key': `e2e-trainer-api-${Date.now()}` };
  const group = { versionId, rewards: [1, 1, 0, 0], policy: 'e2e-trainer-api', policyVersion: 'step-1' };
  const first = await request.post('/api/v1/trainer/groups', { headers: keyed, data: group });
  expect(first.status()).toBe(201);
  const again = await request.post('/api/v1/trainer/groups', { headers: keyed, data: group });
  expect(again.status()).toBe(200);
  expect(again.headers()['idempotency-replayed']).toBe('true');
  expect(((await again.json()) as { groupId: string }).groupId).toBe(((await first.json()) as { groupId: string }).groupId);
  expect((await request.post('/api/v1/trainer/groups', { headers: keyed, data: { ...group, rewards: [1, 1, 1, 0] } })).status()).toBe(409);
  const spoofed = await request.post('/api/v1/trainer/groups', { headers, data: { ...group, policy: 'anthropic' } });
  expect(spoofed.status()).toBe(403);
  expect(await spoofed.json()).toMatchObject({ error: 'policy_run_by_envolve' });
});

test("the home page shows a trainer their token's policies and a report the server takes as shown", async ({ page, request }) => {
  // The newest token's first policy is the one the example reports under.
  const token = trainerToken('e2e-home-example,trainer');
  await signIn(page, 'trainer');
  await page.goto('/');
  await expect(page.getByTestId('home-token-policies')).toContainText('e2e-home-example, trainer');
  const example = await page.getByTestId('home-trainer-request').innerText();
  expect(example).toContain('Idempotency-Key: $KEY');
  const body = JSON.parse(/-d '([^']+)'/.exec(example)![1]!) as Record<string, unknown>;
  expect(body).toMatchObject({ policy: 'e2e-home-example', policyVersion: expect.stringMatching(/\S/) });

  // The example as it stands, on a version outside every lineage (it moves no frontier), with a key.
  const headers = { authorization: `Bearer ${token}`, 'idempotency-key': `e2e-home-example-${Date.now()}` };
  const data = { ...body, versionId: e2eFixture().examples['dependency-audit']! };
  const first = await request.post('/api/v1/trainer/groups', { headers, data });
  expect(first.status()).toBe(201);
  expect(await first.json()).toMatchObject({ passes: 2, size: 4, timeouts: 1 });
  const again = await request.post('/api/v1/trainer/groups', { headers, data });
  expect(again.status()).toBe(200);
  expect(again.headers()['idempotency-replayed']).toBe('true');
});

test('a flagged version is gone (410), a held-out one refused (403), an unknown one not found (404)', async ({ request }) => {
  const headers = { authorization: `Bearer ${trainerToken()}` };
  const { examples } = e2eFixture();
  const flaggedId = examples['seed-telemetry-jq']!;
  const heldOutId = examples['seed-ledger-sql']!;
  const db = new Database(E2E_DATABASE_URL.replace(/^file:/, ''), { timeout: SQLITE_BUSY_MS });
  try {
    db.prepare('UPDATE "EnvironmentVersion" SET "compromisedAt" = ?, "compromisedReason" = ? WHERE "id" = ?').run(Date.now(), 'e2e: reward hack', flaggedId);
    db.prepare('UPDATE "EnvironmentVersion" SET "heldOutSet" = ? WHERE "id" = ?').run('e2e-eval', heldOutId);

    const flagged = await request.get(`/api/v1/trainer/environments/${flaggedId}/task`, { headers });
    expect(flagged.status()).toBe(410);
    expect(await flagged.json()).toMatchObject({ error: 'flagged', message: expect.stringContaining('reward-hackable') });
    const heldOut = await request.get(`/api/v1/trainer/environments/${heldOutId}/task`, { headers });
    expect(heldOut.status()).toBe(403);
    expect(await heldOut.json()).toMatchObject({ error: 'held_out', message: expect.stringContaining('"e2e-eval"') });
    const unknown = await request.get(`/api/v1/trainer/environments/${'f'.repeat(64)}/task`, { headers });
    expect(unknown.status()).toBe(404);

    // The group report asks the same rule: neither version's rewards are counted.
    for (const versionId of [flaggedId, heldOutId]) {
      expect((await request.post('/api/v1/trainer/groups', { headers, data: { versionId, rewards: [1, 1, 1, 1, 1, 1, 1, 1] } })).status()).toBe(403);
    }
    const malformed = await request.post('/api/v1/trainer/groups', {
      headers: { ...headers, 'content-type': 'application/json' },
      data: Buffer.from('{"versionId": '),
    });
    expect(malformed.status()).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: 'bad_request', message: 'the request body is not valid JSON' });
  } finally {
    db.prepare('UPDATE "EnvironmentVersion" SET "compromisedAt" = NULL, "compromisedReason" = NULL WHERE "id" = ?').run(flaggedId);
    db.prepare('UPDATE "EnvironmentVersion" SET "heldOutSet" = NULL WHERE "id" = ?').run(heldOutId);
    db.close();
  }
});
