// Missed issues become rubric items, end to end: a reviewer files one with an executable check
// on a generation, a lead converts and activates it, a newly evolved generation's rubric
// verdicts contain it, and a backtest (run by a worker) finds the older generation it violates.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { e2eFixture } from './fixtures/data.ts';
import { E2E_DATABASE_URL, REPO_ROOT, SCREENSHOT_DIR } from './paths.ts';
import { pageWaitsLimitMs, PAGE_WAIT_LIMIT_MS, SIGN_IN_PAGE_WAITS } from './budgets.ts';
import { evolutionMs, limitMs, rubricChecksMs, UNBUDGETED_STEP_MS } from '../test/budgets.ts';
import { DEFAULT_POLL_MS } from '../lib/queue/run-worker.ts';
import { BACKTEST_CONCURRENCY } from '../lib/rubric/index.ts';

// The fixture lineage evolves seed-logs-awk (2 steps) along length: generation n has n+2 steps.
// Generation 1 (3 steps) is the only one this check fails.
const AT_LEAST_FOUR_STEPS = `n=$(grep -c '^## Step ' instruction.md)
echo "instruction.md has $n steps"
test "$n" -ge 4`;
const TITLE = 'Length lineages need four steps';
const KEY = 'length-lineages-need-four-steps';
const DESCRIPTION = 'This far along a length lineage, fewer than four steps is not harder than the seed.';
// The spec's awaited page steps besides its two sign-ins (each navigation, action, expectation and request).
const OTHER_PAGE_WAITS = 48;

const cliEnv = { ...process.env, DATABASE_URL: E2E_DATABASE_URL };
// The fixture lineage's seed, seed-logs-awk: its steps.
const SEED_STEPS = 2;

// Evolving the fixture lineage's next generation from the CLI: the process, then one generation along
// length after the fixture's, judged by the built-in checks and the one lineage item this spec activates.
const evolveNextMs = (fixtureGenerations: number) =>
  UNBUDGETED_STEP_MS + evolutionMs(1, { steps: SEED_STEPS + fixtureGenerations, lengthGrows: true, extraChecks: 1 });

// The backtest's worker: its process, a poll, then the item's one check over each of the lineage's
// generations, BACKTEST_CONCURRENCY at a time.
const backtestMs = (generations: number) => UNBUDGETED_STEP_MS + DEFAULT_POLL_MS + Math.ceil(generations / BACKTEST_CONCURRENCY) * rubricChecksMs(1);

function generationCount(lineageId: string): number {
  const db = new Database(E2E_DATABASE_URL.replace(/^file:/, ''), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM Generation WHERE lineageId = ?').get(lineageId) as { n: number }).n;
  } finally {
    db.close();
  }
}

function newestGenerationId(lineageId: string): string {
  const db = new Database(E2E_DATABASE_URL.replace(/^file:/, ''), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT id FROM Generation WHERE lineageId = ? ORDER BY number DESC, createdAt DESC LIMIT 1').get(lineageId) as { id: string };
    return row.id;
  } finally {
    db.close();
  }
}

interface VerdictsResponse {
  runs: { rubricVersion: string; verdicts: { item: string; verdict: string; detail: string }[] }[];
}

test('a missed issue becomes an active rubric item that judges the next generation, and its backtest finds generation 1', async ({ page, browser }) => {
  const { lineageId, generationIds, seedVersionId } = e2eFixture();
  // Two sign-ins and the spec's other page waits one after the other, the next generation's evolution,
  // and the backtest over the lineage as it stands then (its generations now, and the one evolved).
  const pageWaits = 2 * SIGN_IN_PAGE_WAITS + OTHER_PAGE_WAITS;
  test.setTimeout(pageWaitsLimitMs(pageWaits, evolveNextMs(generationIds.length), backtestMs(generationCount(lineageId) + 1)));

  // A reviewer files the issue on generation 1, from the keyboard-usable form.
  await signIn(page, 'reviewer', `/generations/${generationIds[0]}/missed-issue/new`);
  await page.goto(`/generations/${generationIds[0]}/missed-issue/new`);
  await page.getByLabel('What is wrong').fill(TITLE);
  await page.getByLabel('Description').fill(DESCRIPTION);
  await page.getByLabel('Severity').selectOption('medium');
  await page.getByLabel('Which validator should have caught it').selectOption('rubric');
  await page.getByLabel('Executable check (optional)').fill(AT_LEAST_FOUR_STEPS);
  await page.getByRole('button', { name: 'File missed issue' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Filed' })).toContainText(`Filed “${TITLE}”`);
  // Filed once: the form is gone, and the same report sent again is refused, naming the first.
  await expect(page.getByRole('button', { name: 'File missed issue' })).toHaveCount(0);
  const again = await page.request.post('/api/missed-issues', {
    data: { generationId: generationIds[0], title: TITLE, description: DESCRIPTION, severity: 'medium', validatorKind: 'rubric' },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(again.status()).toBe(409);
  const refusal = (await again.json()) as { error: string; missedIssueId: string };
  expect(refusal.error).toBe('duplicate_missed_issue');
  await page.getByRole('link', { name: 'Open it' }).click();
  await expect(page).toHaveURL(new RegExp(`/missed-issues/${refusal.missedIssueId}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(TITLE);
  const issueUrl = page.url();
  // A reviewer may file, not convert: the server refuses it.
  const refused = await page.request.post(`${issueUrl.replace('/missed-issues/', '/api/missed-issues/')}/convert`, {
    data: { title: TITLE, description: 'x', check: 'true', scope: 'global', appliesTo: 'environment' },
    headers: { origin: new URL(issueUrl).origin },
  });
  expect(refused.status()).toBe(403);

  // A lead converts it for this lineage and activates it in one step.
  const leadContext = await browser.newContext();
  const lead = await leadContext.newPage();
  await signIn(lead, 'lead', new URL(issueUrl).pathname);
  await lead.goto(issueUrl);
  await expect(lead.getByLabel('Executable check')).toHaveValue(AT_LEAST_FOUR_STEPS);
  await lead.getByLabel('Scope').selectOption('lineage');
  await lead.getByRole('button', { name: 'Create and activate' }).click();
  // The lead lands on the new item: version 1, in force.
  await expect(lead.getByRole('heading', { level: 1 })).toContainText(`${KEY}@1`);
  await expect(lead.getByTestId('item-state')).toHaveText('active');
  const itemUrl = lead.url();

  // The next generation is evolved after activation: its rubric run judged it with the item.
  execFileSync('node', ['bin/envolve.mjs', 'evolve', seedVersionId, '--generations', '1', '--axis', 'length', '--json'], {
    cwd: REPO_ROOT,
    env: cliEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const newest = newestGenerationId(lineageId);
  expect(generationIds).not.toContain(newest);
  const response = await lead.request.get(`/api/rubric/verdicts?generationId=${newest}`);
  expect(response.ok()).toBe(true);
  const { runs } = (await response.json()) as VerdictsResponse;
  const verdict = runs.at(-1)?.verdicts.find((v) => v.item === `${KEY}@1`);
  expect(verdict).toMatchObject({ verdict: 'passed' });
  expect(verdict?.detail).toContain('has 7 steps');
  await lead.reload();
  await expect(lead.getByTestId('item-verdicts')).toContainText(runs.at(-1)!.rubricVersion);

  // Before any backtest the headline says the question is still open.
  await expect(lead.getByTestId('backtest-headline')).toHaveText(/^Would have caught G1 of .+: not backtested yet/);
  // The lead backtests it; a worker runs the queued job; generation 1 is the violation.
  await lead.getByRole('button', { name: 'Run backtest' }).click();
  await expect(lead.getByRole('status').filter({ hasText: 'Backtest queued' })).toBeVisible();
  let worker: ChildProcess | undefined;
  try {
    worker = spawn('node', ['bin/envolve.mjs', 'worker', '--concurrency', '2'], { cwd: REPO_ROOT, env: cliEnv, stdio: 'ignore' });
    // The backtest over the lineage's generations, then the page showing its summary.
    const backtestLimitMs = limitMs(backtestMs(generationCount(lineageId))) + PAGE_WAIT_LIMIT_MS;
    await expect(lead.getByTestId('backtest-summary')).toContainText('1 violation(s)', { timeout: backtestLimitMs });
  } finally {
    worker?.kill('SIGTERM');
  }
  // The headline answers the question for the generation the issue was filed on, first.
  const headline = lead.getByTestId('backtest-headline');
  await expect(headline).toHaveAttribute('data-caught', 'yes');
  await expect(headline).toContainText(/^Would have caught G1 of .+: yes, it fails — .*has 3 steps/);
  const violation = lead.getByTestId('backtest-findings').getByRole('row').filter({ hasText: 'failed' });
  await expect(violation).toHaveCount(1);
  await expect(violation).toContainText('#1');
  await expect(violation).toContainText('has 3 steps');
  await expect(violation.getByRole('button', { name: 'Send back to review' })).toBeVisible();

  await lead.goto('/rubric');
  await expect(lead.getByRole('row').filter({ hasText: KEY })).toContainText('active v1');
  await lead.screenshot({ path: path.join(SCREENSHOT_DIR, 'rubric.png'), fullPage: true });
  await lead.goto(itemUrl);
  await lead.screenshot({ path: path.join(SCREENSHOT_DIR, 'rubric-item.png'), fullPage: true });

  // Out of force again, so the other specs' revisions of this lineage are judged as before.
  await lead.goto('/rubric');
  await lead.getByRole('button', { name: `Deactivate ${KEY}@1` }).click();
  await expect(lead.getByRole('row').filter({ hasText: KEY })).toContainText('inactive');
  await leadContext.close();
});
