// The drift page over the 100 × 15 synthetic lineages of e2e/fixtures/drift-seed.ts: charts
// render (their timing is bench/browser.ts's), filters and the x-axis switch change them, an alert
// leads to its lineage's own view, and the JSON, CSV and Prometheus routes answer.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signIn, USERS } from './fixtures/auth.ts';
import { DRIFT_SEED_FILE, type DriftSeedSummary } from './fixtures/drift-seed.ts';
import { E2E_DATABASE_URL, REPO_ROOT, SCREENSHOT_DIR } from './paths.ts';
import { pageWaitsLimitMs, SIGN_IN_PAGE_WAITS } from './budgets.ts';

const summary = (): DriftSeedSummary => JSON.parse(readFileSync(DRIFT_SEED_FILE, 'utf8')) as DriftSeedSummary;
// The drift page's six charts: the page (its server's statements over every lineage), then the charts
// drawn in the browser from the wire form's columns, after the document.
const CHARTS_PAGE_WAITS = 2;
const screenshot = (name: string) => path.join(SCREENSHOT_DIR, `${name}.png`);
const legendCount = async (page: Page) => Number((await page.getByTestId('legend-count').textContent())?.match(/\d+/)?.[0]);
// The values the pass-rate chart draws as its median (its own line, for one lineage).
const passRateMedian = (page: Page) => page.locator('[data-chart="passRate"] [data-testid="chart-plot"]');
const medianValues = (page: Page) => passRateMedian(page).getAttribute('data-primary-values');

test('a lead reads 100 lineages × 15 generations: six charts, bands, spectrum, funnel and alerts', async ({ page }) => {
  // Signing in, the page and its charts (CHARTS_PAGE_WAITS), then the overview's 18 other awaited steps.
  test.setTimeout(pageWaitsLimitMs(SIGN_IN_PAGE_WAITS + CHARTS_PAGE_WAITS + 18));
  await signIn(page, 'lead');
  await page.goto('/drift');
  await expect(page.getByTestId('drift-chart')).toHaveCount(6, { timeout: pageWaitsLimitMs(CHARTS_PAGE_WAITS) });
  // The first chart drawn and hydrated marks itself.
  await page.waitForFunction(() => performance.getEntriesByName('drift-chart-ready').length > 0);

  expect(await legendCount(page)).toBeGreaterThanOrEqual(summary().lineages);
  const passRate = page.locator('[data-chart="passRate"]');
  await expect(passRate.getByText('6/8 release bar')).toBeVisible();
  await expect(passRate.getByTestId('band')).toHaveCount(1);
  await expect(page.locator('[data-chart="difficulty"]').getByText('skill rarity')).toBeVisible();
  await expect(page.getByTestId('spectrum-row')).toHaveCount(3);
  // Length edits cost more pass rate than scenario edits, as the synthetic effects were built.
  const passDelta = async (axis: string) =>
    (await page.locator(`[data-testid="spectrum-row"][data-axis="${axis}"] td:nth-of-type(2) svg`).getAttribute('aria-label')) ?? '';
  expect(Number.parseFloat((await passDelta('length')).replace('−', '-'))).toBeLessThan(Number.parseFloat((await passDelta('scenario')).replace('−', '-')));
  await expect(page.getByTestId('funnel-stage')).toHaveCount(4);
  await expect(page.getByTestId('funnel-stage').first()).toContainText(String(summary().candidates));
  await expect(page.getByTestId('threshold-passes')).toHaveText('4/8');
  await expect(page.getByTestId('drift-alert').first()).toBeVisible();

  // Hovering a lineage in the legend draws its line in every chart.
  await page.getByTestId('legend-row').filter({ hasText: 'drift-length-000' }).hover();
  await expect(page.getByTestId('highlighted-line')).toHaveCount(6);
  // The cursor is shared: hovering one chart reads out the same generation under every chart.
  await page.locator('[data-chart="passRate"] .u-over').hover({ position: { x: 200, y: 100 } });
  const readouts = page.getByTestId('chart-readout').getByText(/^Generation \d+$/);
  await expect(readouts).toHaveCount(6);
  expect(new Set(await readouts.allTextContents()).size).toBe(1);
  await page.screenshot({ path: screenshot('drift-overview'), fullPage: true });
});

test('filters and the x-axis switch change the charts, and live in the URL', async ({ page }) => {
  await signIn(page, 'lead', '/drift');
  const before = await legendCount(page);
  const d = await medianValues(page);

  await page.getByLabel('Synthesiser').selectOption('anthropic');
  await expect(page).toHaveURL(/synthesiser=anthropic/);
  await expect.poll(() => legendCount(page)).toBeLessThan(before);
  expect(await legendCount(page)).toBeGreaterThanOrEqual(summary().bySynthesiser.anthropic ?? 0);
  await expect(page.getByTestId('lineage-summary')).toContainText(`of ${before} lineages`);
  const filtered = await medianValues(page);
  expect(filtered).not.toBe(d);

  await page.getByLabel('Axis policy').selectOption('length');
  await expect(page).toHaveURL(/axisPolicy=length/);
  await expect.poll(() => medianValues(page)).not.toBe(filtered);

  await page.getByRole('link', { name: 'By time' }).click();
  await expect(page).toHaveURL(/x=time/);
  await expect(page).toHaveURL(/synthesiser=anthropic/);
  await expect(
    page
      .locator('[data-chart="passRate"]')
      .getByText(/^[A-Z][a-z]{2} \d{1,2}$/)
      .first(),
  ).toBeVisible();
  await page.screenshot({ path: screenshot('drift-filtered-time'), fullPage: true });
});

test('an alert links to its lineage, whose own view draws its generations', async ({ page }) => {
  const [noSignal] = summary().noSignal;
  await signIn(page, 'lead', '/drift');
  const alert = page
    .getByTestId('drift-alert')
    .filter({ has: page.locator(`a[href="/drift?lineage=${noSignal}"]`) })
    .first();
  await expect(alert).toHaveAttribute('data-kind', 'no-signal');
  await expect(alert).toContainText('0/8');
  await alert.getByTestId('alert-lineage').click();
  await expect(page).toHaveURL(`/drift?lineage=${noSignal}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Drift · drift-');
  await expect(page.getByRole('link', { name: 'lineage tree' })).toHaveAttribute('href', `/lineages/${noSignal}`);
  const passRate = page.locator('[data-chart="passRate"]');
  await expect(passRate.getByRole('link', { name: /^Generation \d+$/ })).toHaveCount(summary().generations);
  await expect(page.getByTestId('drift-alert').first()).toHaveAttribute('data-kind', 'no-signal');
  await expect(page.getByTestId('drift-legend')).toHaveCount(0);
  await page.screenshot({ path: screenshot('drift-lineage'), fullPage: true });
});

test('the JSON, CSV and Prometheus routes: guarded, validated, and carrying the same series', async ({ page, request }) => {
  expect((await request.get('/api/drift/alerts')).status()).toBe(401);
  await signIn(page, 'reviewer', '/drift');
  const alerts = await page.request.get('/api/drift/alerts?stalledDays=7');
  expect(alerts.ok()).toBe(true);
  const body = (await alerts.json()) as { thresholds: { stalledDays: number }; alerts: { kind: string; lineageId: string | null; href: string }[] };
  expect(body.thresholds.stalledDays).toBe(7);
  for (const id of summary().stalled)
    expect(body.alerts).toContainEqual(expect.objectContaining({ kind: 'stalled', lineageId: id, href: `/drift?lineage=${id}` }));
  expect((await page.request.get('/api/drift/alerts?from=yesterday')).status()).toBe(400);
  expect((await page.request.get('/api/drift/csv?chart=nope')).status()).toBe(400);

  const csv = await page.request.get('/api/drift/csv?chart=difficulty&synthesiser=procedural');
  expect(csv.headers()['content-type']).toContain('text/csv');
  const rows = (await csv.text()).trim().split('\r\n');
  expect(rows[0]).toBe('lineage_id,lineage_name,generation_id,generation,difficultyTotal,difficultyLength,difficultyScenario,difficultySkill');
  expect(rows.length).toBeGreaterThan((summary().bySynthesiser.procedural ?? 0) * (summary().generations + 1));
  const band = (await (await page.request.get('/api/drift/csv?chart=passRate&part=band')).text()).split('\r\n');
  expect(band[0]).toBe('metric,generation,lineages,median,q1,q3,min,max');
  expect((await (await page.request.get('/api/drift/csv?chart=funnel')).text()).split('\r\n')).toHaveLength(summary().candidates + 2);

  // Pass rates are of one policy, and say which: each lineage's gating policy, or the one asked for.
  const own = (await (await page.request.get('/api/drift')).json()) as { passRatePolicy: { policy: string | null; label: string } };
  expect(own.passRatePolicy).toMatchObject({ policy: null, label: expect.stringContaining("each lineage's gating policy") });
  const simulated = (await (await page.request.get('/api/drift?policy=simulated')).json()) as { passRatePolicy: { policy: string } };
  expect(simulated.passRatePolicy.policy).toBe('simulated');

  // The reviewer's session lacks metrics.read; a bearer token of a role that has it is served.
  expect((await page.request.get('/api/metrics')).status()).toBe(403);
  const token = (
    JSON.parse(
      execFileSync('node', ['bin/envolve.mjs', 'tokens', 'create', '--user', USERS.trainer.email, '--name', 'e2e grafana', '--json'], {
        cwd: REPO_ROOT,
        env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
        encoding: 'utf8',
      }),
    ) as { token: string }
  ).token;
  const metrics = await request.get('/api/metrics', { headers: { authorization: `Bearer ${token}` } });
  expect(metrics.status()).toBe(200);
  expect(metrics.headers()['content-type']).toContain('text/plain; version=0.0.4');
  const text = await metrics.text();
  expect(text).toContain('# TYPE envolve_lineage_frontier gauge');
  expect(text).toMatch(/envolve_lineage_frontier\{lineage_id="drift-l000",lineage="drift-length-000"\} 15\n/);
  expect(text).toMatch(
    /envolve_lineage_probe_pass_rate\{lineage_id="drift-l000",lineage="drift-length-000",generation="\d+",policy="anthropic",policy_version="1"\} /,
  );
  expect(text).toContain('# TYPE envolve_job_turnaround_seconds histogram');
  expect(text).toMatch(/envolve_drift_alerts\{kind="stalled"\} \d+/);
});

test('for comparison: one sample reads n = 1, checkpoints overlay on one chart whose legend toggles, and a drag zooms until Reset zoom', async ({ page }) => {
  // One lineage that only takes the length axis: its edits-to-the-horizon effect rests on it alone.
  await signIn(page, 'lead', '/drift?lineage=drift-l000');
  const spreads = page.getByTestId('spread-text');
  await expect(spreads.filter({ hasText: 'n = 1' }).first()).toBeVisible();
  for (const text of await spreads.allTextContents()) {
    if (text.includes('n = 1')) expect(text).not.toContain('±');
  }
  await expect(page.getByTestId('outcome-scatter').first()).toContainText('estimated D (off-policy)');
  await expect(page.getByTestId('outcome-scatter').first()).toContainText('pass rate • (%)');

  await page.goto('/drift');
  const overlay = page.getByTestId('checkpoint-overlay');
  const legend = overlay.locator('.u-legend');
  await expect(legend).toContainText(/anthropic @ 1 \(\d+ lineages, n=\d+ rollouts\)/);
  await expect(legend).toContainText(/simulated @ 1 \(\d+ lineages, n=\d+ rollouts\) — simulated: tests the pipeline, not the method/);
  const simulated = legend.locator('tr.u-series').filter({ hasText: 'simulated @ 1' });
  await simulated.locator('th').click();
  await expect(simulated).toHaveClass(/u-off/);
  await simulated.locator('th').click();
  await expect(simulated).not.toHaveClass(/u-off/);

  const reset = overlay.getByRole('button', { name: 'Reset zoom' });
  await expect(reset).toBeDisabled();
  const plot = (await overlay.locator('.u-over').boundingBox())!;
  await page.mouse.move(plot.x + plot.width * 0.2, plot.y + plot.height / 2);
  await page.mouse.down();
  await page.mouse.move(plot.x + plot.width * 0.6, plot.y + plot.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(reset).toBeEnabled();
  await reset.click();
  await expect(reset).toBeDisabled();
  await overlay.screenshot({ path: screenshot('drift-checkpoint-overlay') });
});
