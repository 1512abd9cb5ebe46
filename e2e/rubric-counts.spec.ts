// The verdict counts /rubric shows for plan items agree with the plan reviews the generation pages
// list: every page with a plan review is read, each plan item's rows counted (and those judged,
// passed or failed), and the catalogue's row for that item must say the same numbers.
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { E2E_DATABASE_URL } from './paths.ts';

// The generations whose plan rounds recorded item verdicts: the pages to read.
function generationsWithPlanReviews(): string[] {
  const db = new Database(E2E_DATABASE_URL.replace(/^file:/, ''), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare(`SELECT DISTINCT generationId FROM PlanRound WHERE review LIKE '%"itemId"%' ORDER BY generationId`).all() as {
      generationId: string;
    }[];
    return rows.map((row) => row.generationId);
  } finally {
    db.close();
  }
}

test("/rubric counts a plan item's verdicts as the generation pages list them", async ({ page }) => {
  const ids = generationsWithPlanReviews();
  expect(ids.length).toBeGreaterThan(0);
  await signIn(page, 'lead', '/rubric');
  const listed = new Map<string, { total: number; judged: number }>();
  for (const id of ids) {
    await page.goto(`/generations/${id}`);
    await expect(page.locator('[data-testid^="plan-round-"]').first()).toBeVisible();
    const rows = await page
      .locator('[data-testid^="plan-round-"] tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.children[0]?.textContent ?? '', tr.children[1]?.textContent ?? ''] as const));
    for (const [label, verdict] of rows) {
      const key = label.replace(/@\d+$/, '');
      const count = listed.get(key) ?? { total: 0, judged: 0 };
      count.total += 1;
      if (verdict === 'passed' || verdict === 'failed') count.judged += 1;
      listed.set(key, count);
    }
  }
  const planKeys = [...listed.keys()].filter((key) => key.startsWith('plan_'));
  expect(planKeys.length).toBeGreaterThan(0);

  await page.goto('/rubric');
  for (const key of planKeys) {
    const { total, judged } = listed.get(key)!;
    const row = page.getByRole('row').filter({ has: page.getByText(key, { exact: true }) });
    await expect(row.getByRole('cell').nth(7)).toHaveText(`${total} (${judged} judged)`);
  }
});
