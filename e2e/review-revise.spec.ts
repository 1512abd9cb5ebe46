// A revision on the review page: a reviewer marks every file of a generation
// viewed and requests changes; a worker revises it (a new attempt, built by the modifier from the
// reviewer's comment and validated in Docker); back on the page, the files the revision changed
// are unviewed again and say "changed since you viewed it", with the change since shown, the
// files it left alone stay viewed, and the diff between the attempts shows what changed, its
// folded context unfolding from the keyboard. The generation is evolved here, in a lineage of
// its own, so requesting changes supersedes nothing the other specs review.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { expect, test, type Locator } from '@playwright/test';
import { candidateValidationMs, DEFAULT_LOOPS, evolutionMs, limitMs, proceduralTaskBudgets, SQLITE_BUSY_MS } from '../test/budgets.ts';
import { signIn } from './fixtures/auth.ts';
import { e2eFixture } from './fixtures/data.ts';
import { E2E_DATABASE_URL, REPO_ROOT } from './paths.ts';

// seed-logs-awk has two steps; a length generation adds one.
const SEED_STEPS = 2;
// Another lineage seed than the fixture lineage's (1): a lineage of its own from the same seed task.
const LINEAGE_SEED = '27';
// The revision runs Loop 2 again: up to its rounds, each a candidate validation of the three-step task.
// (Generation 1 is counter-checked against the seed.)
const REVISION_MS = DEFAULT_LOOPS.maxModifyRounds * candidateValidationMs(proceduralTaskBudgets(SEED_STEPS + 1), { ancestors: 1 });
const COMMENT = 'The added step asks too little of its data: rebuild it with another question.';

const cliEnv = { ...process.env, DATABASE_URL: E2E_DATABASE_URL };

function generationRow(lineageId: string): { id: string; state: string; attempts: number } {
  const db = new Database(E2E_DATABASE_URL.replace(/^file:/, ''), { readonly: true, fileMustExist: true, timeout: SQLITE_BUSY_MS });
  try {
    return db
      .prepare(
        'SELECT g.id AS id, g.state AS state, (SELECT COUNT(*) FROM Attempt a WHERE a.generationId = g.id) AS attempts FROM Generation g WHERE g.lineageId = ?',
      )
      .get(lineageId) as { id: string; state: string; attempts: number };
  } finally {
    db.close();
  }
}

let lineageId = '';

test.beforeAll(() => {
  test.setTimeout(limitMs(evolutionMs(1, { steps: SEED_STEPS, lengthGrows: true })));
  const reason = 'e2e: the revision spec needs a generation of its own; no trainer reports here';
  const args = [
    'evolve',
    e2eFixture().seedVersionId,
    '--generations',
    '1',
    '--axis',
    'length',
    '--seed',
    LINEAGE_SEED,
    '--force',
    '--reason',
    reason,
    '--json',
  ];
  const out = execFileSync('node', ['bin/envolve.mjs', ...args], { cwd: REPO_ROOT, env: cliEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  lineageId = (JSON.parse(out) as { id: string }).id;
  expect(generationRow(lineageId).state).toBe('awaiting-review');
});

// Opens a file row (residual or attempt diff) unless it is open already.
async function open(row: Locator): Promise<void> {
  const toggle = row.locator('button[aria-expanded]').first();
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

async function paths(rows: Locator): Promise<string[]> {
  return Promise.all((await rows.all()).map(async (row) => (await row.getAttribute('data-path')) ?? ''));
}

test('a revision shows the files it changed unviewed, "changed since you viewed it", and the diff between the attempts', async ({ page }) => {
  test.setTimeout(limitMs(REVISION_MS));
  const { id } = generationRow(lineageId);
  await signIn(page, 'reviewer', `/generations/${id}`);
  await page.goto(`/generations/${id}`);
  await expect(page.getByRole('form', { name: 'Decision' })).toHaveAttribute('data-keys-ready', '');
  // One attempt: nothing to compare yet, nothing changed since a review that never was.
  await expect(page.locator('section#attempt-diff')).toHaveCount(0);
  await expect(page.getByTestId('changed-since-review')).toHaveCount(0);

  // Every file viewed, the folded data files too.
  const files = page.getByTestId('residual-file');
  const total = await files.count();
  expect(total).toBeGreaterThan(0);
  if ((await page.getByTestId('data-files').count()) > 0) await page.getByTestId('data-files').locator('summary').click();
  for (const file of await files.all()) await file.getByLabel('Viewed', { exact: true }).check();
  await expect(page.getByTestId('viewed-counter')).toContainText(`${total} of ${total}`);
  const viewed = await paths(files);

  // Request changes; a worker revises the generation from the comment.
  await page.getByLabel(/^Comment/).fill(COMMENT);
  await page.getByRole('button', { name: 'Request changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/generations/${id}\\?decided=`));
  expect(generationRow(lineageId).state).toBe('changes-requested');
  let worker: ChildProcess | undefined;
  try {
    worker = spawn('node', ['bin/envolve.mjs', 'worker', '--concurrency', '1'], { cwd: REPO_ROOT, env: cliEnv, stdio: 'ignore' });
    await expect.poll(() => generationRow(lineageId).state, { timeout: limitMs(REVISION_MS) }).not.toMatch(/^(changes-requested|modifying)$/);
  } finally {
    worker?.kill('SIGTERM');
  }
  const revised = generationRow(lineageId);
  expect(revised.state).toBe('awaiting-review');
  expect(revised.attempts).toBeGreaterThan(1);
  const newest = revised.attempts;

  await page.goto(`/generations/${id}`);
  await expect(page.getByRole('form', { name: 'Decision' })).toHaveAttribute('data-keys-ready', '');
  await expect(page.getByRole('heading', { name: new RegExp(`^Residual of attempt ${newest} `) })).toBeVisible();

  // The attempt diff: from the attempt viewed (1) to the revision.
  const attemptDiff = page.getByTestId('attempt-diff');
  await expect(attemptDiff.getByRole('combobox', { name: 'to', exact: true })).toHaveValue(String(newest));
  await attemptDiff.getByRole('combobox', { name: 'From', exact: true }).selectOption('1');
  await expect(attemptDiff.getByTestId('attempt-diff-count')).toContainText(`from attempt 1 to attempt ${newest}`);
  const changed = await paths(attemptDiff.getByTestId('attempt-diff-file'));
  expect(changed.length).toBeGreaterThan(0);

  // The residual: what the revision changed is unviewed again and says since when it changed (the viewed mark, or
  // for a file the reviewer never marked, their decision on attempt 1); what it left alone stays viewed.
  if ((await page.getByTestId('data-files').count()) > 0) await page.getByTestId('data-files').locator('summary').click();
  const current = await paths(files);
  const changedSinceViewed = current.filter((path) => viewed.includes(path) && changed.includes(path));
  expect(changedSinceViewed.length).toBeGreaterThan(0);
  for (const path of current) {
    const file = files.and(page.locator(`[data-path="${path}"]`));
    if (changed.includes(path)) {
      await expect(file.getByLabel('Viewed', { exact: true })).not.toBeChecked();
      await expect(file.getByTestId('changed-since')).toHaveText(viewed.includes(path) ? 'changed since you viewed it' : 'changed since your decision');
    } else {
      await expect(file.getByTestId('changed-since')).toHaveCount(0);
      if (viewed.includes(path)) await expect(file.getByLabel('Viewed', { exact: true })).toBeChecked();
    }
  }
  const flagged = current.filter((path) => changed.includes(path)).length;
  await expect(page.getByTestId('changed-since-review')).toContainText(`${flagged} ${flagged === 1 ? 'file' : 'files'} changed since your last review`);

  // Opened, a changed file shows what changed since it was viewed: from an attempt holding what was seen (1, or a
  // later one that built the file the same) to the revision.
  const first = changedSinceViewed[0]!;
  const firstFile = files.and(page.locator(`[data-path="${first}"]`));
  await open(firstFile);
  const since = firstFile.getByRole('region', { name: `Changes to ${first} since you viewed it`, exact: true });
  await expect(since).toContainText(new RegExp(`attempt \\d+ → attempt ${newest}`));
  const seen = Number(new RegExp(`attempt (\\d+) → attempt ${newest}`).exec((await since.textContent()) ?? '')?.[1]);
  expect(seen).toBeLessThan(newest);
  const sinceDiff = since.getByRole('table', { name: `Attempt ${seen} to attempt ${newest}: ${first}`, exact: true });
  await expect(sinceDiff.locator('tr[data-kind="add"], tr[data-kind="delete"]').first()).toBeVisible();

  // The same file in the attempt diff: the same change.
  const inAttemptDiff = attemptDiff.getByTestId('attempt-diff-file').and(page.locator(`[data-path="${first}"]`));
  await open(inAttemptDiff);
  const attemptTable = inAttemptDiff.getByRole('table', { name: `Attempt 1 to attempt ${newest}: ${first}`, exact: true });
  const changedLines = async (table: Locator) => (await table.locator('tr[data-kind="add"], tr[data-kind="delete"]').allTextContents()).join('\n');
  await expect(attemptTable.locator('tr[data-kind]').first()).toBeVisible();
  expect(await changedLines(attemptTable)).toBe(await changedLines(sinceDiff));

  // Folded context unfolds from the keyboard: the residual diff of the instruction folds the parent's unchanged lines.
  const instruction = files.and(page.locator('[data-path="instruction.md"]'));
  await open(instruction);
  const residualDiff = instruction.getByRole('table', { name: 'Diff of instruction.md', exact: true });
  const fold = residualDiff.getByTestId('skipped-lines').first();
  await expect(fold).toBeVisible();
  const before = await residualDiff.locator('tr[data-kind]').count();
  const expand = fold.getByRole('button', { name: /^Show \d+ more lines of instruction\.md$/ });
  const step = Number(/^Show (\d+)/.exec((await expand.getAttribute('aria-label')) ?? '')?.[1]);
  await expand.focus();
  await page.keyboard.press('Enter');
  await expect(residualDiff.locator('tr[data-kind]')).toHaveCount(before + step);
  await expect(residualDiff.locator('tr[data-kind="context"]').first()).toBeVisible();

  // Viewed again on its new content, the file no longer says it changed.
  await firstFile.getByLabel('Viewed', { exact: true }).check();
  await expect(firstFile.getByTestId('changed-since')).toHaveCount(0);
  await page.reload();
  await expect(files.and(page.locator(`[data-path="${first}"]`)).getByLabel('Viewed', { exact: true })).toBeChecked();
});
