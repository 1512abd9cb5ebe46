// The release gate in the browser: a demo-mode lineage (probed by the simulated policy, as
// `npm run up` makes one) shows that the simulated policy released its generations; a lead
// switches its probe policy to oracle and the frontier is re-evaluated from oracle groups only.
// The lineage is written straight into the e2e database over three tiny imported tasks, and its
// simulated releases are made by the scheduler itself (`envolve schedule`).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { importTinyTask } from './fixtures/tiny-task.ts';
import { E2E_DATABASE_URL, REPO_ROOT, SCREENSHOT_DIR } from './paths.ts';

const LINEAGE = 'gate-e2e-demo-lineage';
let releasedVersion = '';

function envolve<T>(...args: string[]): T {
  const stdout = execFileSync('node', ['bin/envolve.mjs', ...args, '--json'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(stdout) as T;
}

test.beforeAll(() => {
  const [seed, v1, v2] = ['gate-seed', 'gate-g1', 'gate-g2'].map((name) => importTinyTask('gate-tasks', name)) as [string, string, string];
  releasedVersion = v1;
  const db = new Database(E2E_DATABASE_URL.replace(/^file:/, ''), { fileMustExist: true });
  try {
    const now = new Date().toISOString().replace('Z', '+00:00');
    db.prepare(
      `INSERT INTO Lineage (id, name, seedVersionId, axisPolicy, effort, synthesiser, seed, config, status, approvalsRequired, frontier, probePolicy, demoMode, createdAt, updatedAt)
       VALUES (?, 'gate demo lineage', ?, '{"kind":"round-robin"}', 'low', 'procedural', 1, '{}', 'idle', 1, 0, 'simulated', 1, ?, ?)`,
    ).run(LINEAGE, seed, now, now);
    const generation = db.prepare(
      `INSERT INTO Generation (id, lineageId, number, parentVersionId, versionId, axis, effort, state, revision, createdAt, updatedAt)
       VALUES (?, ?, ?, ?, ?, 'length', 'low', 'approved', 0, ?, ?)`,
    );
    generation.run(`${LINEAGE}-g1`, LINEAGE, 1, seed, v1, now, now);
    generation.run(`${LINEAGE}-g2`, LINEAGE, 2, v1, v2, now, now);
    const group = db.prepare(
      `INSERT INTO ProbeGroup (id, versionId, lineageId, purpose, policy, policyVersion, simulated, size, passes, completed, state, createdAt, updatedAt)
       VALUES (?, ?, ?, 'probe', ?, '1', ?, 8, ?, 8, 'complete', ?, ?)`,
    );
    // Simulated: 7/8 on the seed and 6/8 on G1 (both release). Oracle: 8/8 on the seed, 5/8 on G1.
    group.run(`${LINEAGE}-sim-seed`, seed, LINEAGE, 'simulated', 1, 7, now, now);
    group.run(`${LINEAGE}-sim-g1`, v1, LINEAGE, 'simulated', 1, 6, now, now);
    group.run(`${LINEAGE}-oracle-seed`, seed, LINEAGE, 'oracle', 0, 8, now, now);
    group.run(`${LINEAGE}-oracle-g1`, v1, LINEAGE, 'oracle', 0, 5, now, now);
  } finally {
    db.close();
  }
  const scheduled = envolve<{ frontier: number }>('schedule', LINEAGE);
  expect(scheduled.frontier).toBe(2);
});

test("the demo lineage's released generations say the simulated policy released them", async ({ page }) => {
  await signIn(page, 'lead', `/lineages/${LINEAGE}`);
  await expect(page.getByTestId('demo-mode')).toContainText('simulated');
  await expect(page.getByTestId('release-gate')).toHaveText('simulated groups of ≥ 8 passing ≥ 75.0% · timeouts score 0');
  for (const [g, passes] of [
    ['G1', '7/8'],
    ['G2', '6/8'],
  ] as const) {
    const row = page.getByTestId(`release-${g}`);
    await expect(row.getByTestId('released-by')).toHaveText('simulatedsimulated — demo mode');
    await expect(row).toContainText(`${passes} ≥ 75.0%, group ≥ 8`);
  }
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'release-gate-demo.png'), fullPage: true });

  const tree = (await (await page.request.get(`/api/lineages/${LINEAGE}/tree`)).json()) as {
    tree: { frontier: number; generations: { number: number; release: { policy: string; simulated: boolean } | null }[] };
  };
  expect(tree.tree.frontier).toBe(2);
  expect(tree.tree.generations.map((g) => [g.number, g.release?.policy, g.release?.simulated])).toEqual([
    [1, 'simulated', true],
    [2, 'simulated', true],
  ]);

  // The trainer API and the task export say so too (an admin holds trainer.api).
  await signIn(page, 'admin', '/environments');
  const batch = (await (await page.request.get('/api/v1/trainer/batch?size=1024&seed=1')).json()) as {
    environments: { lineageId: string; generation: number; policy: string; released_by: string | null }[];
  };
  expect(batch.environments.find((e) => e.lineageId === LINEAGE)).toMatchObject({ generation: 2, policy: 'simulated', released_by: 'simulated' });
  const tarball = await page.request.get(`/api/v1/trainer/environments/${releasedVersion}/task`);
  const tar = gunzipSync(await tarball.body()).toString('utf8');
  expect(tar).toContain(`"releases": [\n    {\n      "lineageId": "${LINEAGE}",\n      "generation": 1,\n      "released_by": "simulated"`);
});

test('switching the probe policy to oracle re-evaluates the frontier from oracle groups only', async ({ page }) => {
  await signIn(page, 'lead', `/lineages/${LINEAGE}`);
  const form = page.getByTestId('gate-form');
  await form.getByLabel('Probe policy').selectOption('oracle');
  await form.getByRole('button', { name: 'Save gate' }).click();
  await expect(page.getByTestId('gate-message')).toHaveText('gate saved; frontier re-evaluated: G1');
  await expect(page.getByTestId('release-gate')).toHaveText('oracle groups of ≥ 8 passing ≥ 75.0% · timeouts score 0');
  await expect(page.getByTestId('demo-mode')).toContainText('its probe policy is now oracle, so only oracle groups count');
  await expect(page.getByTestId('policy-view')).toHaveValue('oracle');
  // The seed's oracle 8/8 released G1 again; G1's oracle 5/8 holds G2 back.
  await expect(page.getByTestId('release-G1').getByTestId('released-by')).toHaveText('oracle');
  await expect(page.getByTestId('release-G1')).toContainText('8/8 ≥ 75.0%, group ≥ 8');
  await expect(page.getByTestId('release-G1')).toContainText('5/8 (62.5%)'); // G1's pass rate under oracle, the new probe policy
  await expect(page.getByTestId('release-G2')).toHaveCount(0);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'release-gate-oracle.png'), fullPage: true });

  const tree = (await (await page.request.get(`/api/lineages/${LINEAGE}/tree`)).json()) as {
    tree: { frontier: number; policy: string; generations: { number: number; state: string; release: { policy: string } | null }[] };
  };
  expect(tree.tree.frontier).toBe(1);
  expect(tree.tree.policy).toBe('oracle');
  expect(tree.tree.generations.map((g) => [g.number, g.state, g.release?.policy ?? null])).toEqual([
    [1, 'released', 'oracle'],
    [2, 'approved', null],
  ]);
  // A reviewer may read the lineage but not change its gate.
  await signIn(page, 'reviewer', `/lineages/${LINEAGE}`);
  await expect(page.getByTestId('gate-form')).toHaveCount(0);
  expect((await page.request.patch(`/api/lineages/${LINEAGE}/gate`, { data: { probePolicy: 'simulated' } })).status()).toBe(403);
});
