// The release gate in the browser: a demo-mode lineage (probed by the simulated policy, as
// `npm run up` makes one) shows that the simulated policy released its generations; a lead
// switches its gating policy to trainer, confirms what that withdraws, and the frontier is
// re-evaluated from the groups of the trainer's newest checkpoint only (step-20; step-10's are older).
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
       VALUES (?, ?, ?, ?, ?, ?, ?, 8, ?, 8, 'complete', ?, ?)`,
    );
    // Simulated: 7/8 on the seed and 6/8 on G1 (both release). The trainer's checkpoints, reported
    // in this order: step-10 passed the seed 8/8 and G1 7/8; step-20 passed the seed 7/8, G1 5/8.
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString().replace('Z', '+00:00');
    group.run(`${LINEAGE}-sim-seed`, seed, LINEAGE, 'probe', 'simulated', '1', 1, 7, now, now);
    group.run(`${LINEAGE}-sim-g1`, v1, LINEAGE, 'probe', 'simulated', '1', 1, 6, now, now);
    group.run(`${LINEAGE}-step10-seed`, seed, null, 'trainer', 'trainer', 'step-10', 0, 8, at(30), at(30));
    group.run(`${LINEAGE}-step10-g1`, v1, null, 'trainer', 'trainer', 'step-10', 0, 7, at(29), at(29));
    group.run(`${LINEAGE}-step20-seed`, seed, null, 'trainer', 'trainer', 'step-20', 0, 7, at(10), at(10));
    group.run(`${LINEAGE}-step20-g1`, v1, null, 'trainer', 'trainer', 'step-20', 0, 5, at(9), at(9));
  } finally {
    db.close();
  }
  const scheduled = envolve<{ frontier: number }>('schedule', LINEAGE);
  expect(scheduled.frontier).toBe(2);
});

test("the demo lineage's released generations say the simulated policy released them", async ({ page }) => {
  await signIn(page, 'lead', `/lineages/${LINEAGE}`);
  await expect(page.getByTestId('demo-mode')).toContainText('simulated');
  await expect(page.getByTestId('release-gate')).toHaveText('simulated groups of ≥ 8 rollouts passing ≥ 75.0% · timeouts score 0');
  for (const [g, passes] of [
    ['G1', '7/8'],
    ['G2', '6/8'],
  ] as const) {
    const row = page.getByTestId(`release-${g}`);
    await expect(row.getByTestId('released-by')).toHaveText('simulatedsimulated — demo mode');
    await expect(row).toContainText(`${passes} ≥ 75.0% (groups of ≥ 8 rollouts)`);
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

test("switching the gating policy to trainer asks to confirm what it withdraws, then counts only the newest checkpoint's groups", async ({ page }) => {
  await signIn(page, 'lead', `/lineages/${LINEAGE}`);
  const form = page.getByTestId('gate-form');
  await expect(form.getByLabel('Gating policy').locator('option')).toHaveText(['trainer', 'openai', 'anthropic', 'simulated']);
  await form.getByLabel('Gating policy').selectOption('trainer');
  await form.getByRole('button', { name: 'Save gate' }).click();
  await expect(page.getByTestId('gate-message')).toHaveText(
    'changing the policy to trainer withdraws the release of G1, G2 (back to approved until trainer groups release them): confirm to go ahead',
  );
  await expect(page.getByTestId('release-gate')).toHaveText('simulated groups of ≥ 8 rollouts passing ≥ 75.0% · timeouts score 0'); // nothing changed yet
  await page.getByRole('button', { name: 'Withdraw and change the gate' }).click();
  await expect(page.getByTestId('gate-message')).toHaveText('gate saved; frontier re-evaluated: G1 (5/8 is below the release rate 0.75)');
  await expect(page.getByTestId('release-gate')).toHaveText('trainer groups of ≥ 8 rollouts passing ≥ 75.0% · timeouts score 0');
  await expect(page.getByTestId('policy-version')).toHaveText(
    "only groups of trainer checkpoint step-20, its newest checkpoint; older checkpoints' groups release nothing",
  );
  await expect(page.getByTestId('demo-mode')).toContainText('its probe policy is now trainer, so only trainer groups count');
  await expect(page.getByTestId('policy-view')).toHaveValue('trainer');
  // step-20's 7/8 on the seed released G1; its 5/8 on G1 holds G2 back. step-10's 7/8 on G1 would
  // have released G2, but step-10 is an older checkpoint.
  const g1 = page.getByTestId('release-G1');
  await expect(g1.getByTestId('released-by')).toHaveText('trainer');
  // Every number labelled: the group's size rule and the checkpoint, which once ran together ("≥ 8step-20").
  await expect(g1).toContainText("G0's group 7/8 ≥ 75.0% (groups of ≥ 8 rollouts) · checkpoint step-20");
  // G1's own group, the one that decides G2: its count has its unit and its checkpoint is named.
  await expect(g1).toContainText('5/8 rollouts passed (62.5%) · checkpoint step-20');
  await expect(g1.getByTestId('own-checkpoint')).toHaveText('· checkpoint step-20');
  const g2 = page.getByTestId('release-G2');
  await expect(g2.getByTestId('released-by')).toHaveText('approved, not released');
  await expect(g2.getByTestId('waits-for')).toHaveText("G1's group 5/8 (trainer checkpoint step-20) is below 0.75");
  await expect(page.getByTestId('frontier-wait')).toContainText("G1's group 5/8 (trainer checkpoint step-20) is below 0.75");
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'release-gate-trainer-checkpoints.png'), fullPage: true });

  const tree = (await (await page.request.get(`/api/lineages/${LINEAGE}/tree`)).json()) as {
    tree: {
      frontier: number;
      policy: string;
      policyVersion: string;
      generations: { number: number; state: string; release: { policy: string; policyVersion: string } | null; wait: string | null }[];
    };
  };
  expect(tree.tree).toMatchObject({ frontier: 1, policy: 'trainer', policyVersion: 'step-20' });
  expect(tree.tree.generations.map((g) => [g.number, g.state, g.release?.policy ?? null, g.release?.policyVersion ?? null, g.wait])).toEqual([
    [1, 'released', 'trainer', 'step-20', null],
    [2, 'approved', null, null, "G1's group 5/8 (trainer checkpoint step-20) is below 0.75"],
  ]);
  // The batch serves G1 with step-20's count, and the API refuses oracle as a gate with the reason.
  await signIn(page, 'admin', '/environments');
  const batch = (await (await page.request.get('/api/v1/trainer/batch?size=1024&seed=1')).json()) as {
    environments: { lineageId: string; generation: number; policy: string; policy_version: string | null; passes: number | null }[];
    left_out: { total: number };
  };
  expect(batch.environments.find((e) => e.lineageId === LINEAGE)).toMatchObject({ generation: 1, policy: 'trainer', policy_version: 'step-20', passes: 5 });
  const origin = { origin: new URL(page.url()).origin }; // mutations are accepted only from the dashboard's origin
  const refused = await page.request.patch(`/api/lineages/${LINEAGE}/gate`, { data: { probePolicy: 'oracle' }, headers: origin });
  expect(refused.status()).toBe(422);
  expect(((await refused.json()) as { message: string }).message).toMatch(/^oracle cannot gate a lineage/);
  // A reviewer may read the lineage but not change its gate.
  await signIn(page, 'reviewer', `/lineages/${LINEAGE}`);
  await expect(page.getByTestId('gate-form')).toHaveCount(0);
  const denied = await page.request.patch(`/api/lineages/${LINEAGE}/gate`, { data: { probePolicy: 'simulated' }, headers: origin });
  expect(denied.status()).toBe(403);
  expect(((await denied.json()) as { error: string }).error).toBe('forbidden');
});

test('the drift page shows the pass rate of each trainer checkpoint, pooled over its groups, and which one gates', async ({ page }) => {
  await signIn(page, 'lead', '/drift');
  const section = page.getByTestId('checkpoint-section');
  // step-10 reported the seed 8/8 and G1 7/8; step-20, reported later, the seed 7/8 and G1 5/8.
  const step10 = section.getByTestId('checkpoint-trainer-step-10');
  const step20 = section.getByTestId('checkpoint-trainer-step-20');
  await expect(step10).toContainText('15/16 (93.8%)');
  await expect(step20).toContainText('12/16 (75.0%)');
  await expect(step10).not.toContainText('newest: gates');
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'drift-trainer-checkpoints.png') });
});
