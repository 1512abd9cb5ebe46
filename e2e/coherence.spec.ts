// Issue 26 in the browser. A reviewer requests changes on G2 of a six-generation lineage: G3–G6,
// built on the version the revision replaces, are superseded with the request — the queue no
// longer offers them, the tree and its API show them superseded with why, and a decision on one
// is refused. A generation held in needs-attention (by a real evolution) shows its exits; a
// reviewer cannot accept it, and discards it with a reason.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { E2E_DATABASE_URL, REPO_ROOT } from './paths.ts';
import { HELD_CHECK_TIMEOUT_SEC, HELD_SEED_STEPS } from './fixtures/coherence-seed-shape.ts';
import { BASE_IMAGE_WAIT_MS, evolutionMs, limitMs, UNBUDGETED_STEP_MS } from '../test/budgets.ts';

interface Seeded {
  lineageId: string;
  generationIds: string[];
  heldId: string;
  heldLineageId: string;
}
interface TreeJson {
  tree: { generations: { id: string; number: number; state: string; error: string | null; parentVersionId: string; versionId: string | null }[] };
}

const SHOTS = path.join(REPO_ROOT, 'bench', 'results', 'screenshots');
let seeded: Seeded;

test.beforeAll(() => {
  // One real evolution (build, oracle, nop, and a rubric check out of time twice) runs here: the seed
  // script's process, its wait for another process's base-image build, and one generation of the held
  // lineage (a 2-step procedural seed along length, default loops, its one lineage check at a 1 s budget).
  test.setTimeout(
    limitMs(
      UNBUDGETED_STEP_MS,
      BASE_IMAGE_WAIT_MS,
      evolutionMs(1, { steps: HELD_SEED_STEPS, lengthGrows: true, extraChecks: 1, checkTimeoutSec: HELD_CHECK_TIMEOUT_SEC }),
    ),
  );
  const out = execFileSync('npx', ['tsx', 'e2e/fixtures/coherence-seed.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    encoding: 'utf8',
  });
  seeded = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Seeded;
  expect(seeded.generationIds).toHaveLength(6);
});

test('requesting changes on G2 supersedes G3–G6 in the queue, the tree and the API, and nobody reviews them', async ({ page }) => {
  const [, g2, g3] = seeded.generationIds;
  await signIn(page, 'reviewer', '/review');
  const rows = page.getByRole('row').filter({ hasText: `coherence` });
  await expect(rows).toHaveCount(5);

  await page.goto(`/generations/${g2}`);
  await expect(page.getByRole('form', { name: 'Decision' })).toHaveAttribute('data-keys-ready', '');
  await page.getByLabel(/^Comment/).fill('The added step does not consume the previous output.');
  await page.getByRole('button', { name: 'Request changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/generations/${g2}\\?decided=`));

  // The queue offers none of the lineage: G2 waits for its revision, G3–G6 are superseded.
  await page.goto('/review');
  await expect(page.getByRole('row').filter({ hasText: 'coherence' })).toHaveCount(0);

  // The API: superseded with why, none standing on the version being replaced.
  const api = (await (await page.request.get(`/api/lineages/${seeded.lineageId}/tree`)).json()) as TreeJson;
  const states = api.tree.generations.map((g) => `${g.number}:${g.state}`);
  expect(states).toEqual(['1:approved', '2:changes-requested', '3:superseded', '4:superseded', '5:superseded', '6:superseded']);
  const second = api.tree.generations[1]!;
  expect(api.tree.generations[2]!.error).toBe(
    `superseded: built on generation 2's version ${second.versionId!.slice(0, 12)}, which a reviewer sent back for changes; the lineage evolves again from its revision`,
  );
  expect(api.tree.generations.filter((g) => g.parentVersionId === second.versionId && g.state !== 'superseded')).toEqual([]);

  // The tree draws them superseded.
  await page.goto(`/lineages/${seeded.lineageId}`);
  await expect(page.getByTestId('lineage-tree')).toHaveAttribute('data-ready', 'true');
  // Where the tree cannot show every generation readably, a run between the seed and the newest is folded: open it.
  const run = page.locator('[data-node-kind="run"]');
  if ((await run.count()) > 0) await run.click();
  for (const n of [3, 4, 5, 6]) await expect(page.getByRole('treeitem', { name: new RegExp(`^Generation ${n}, superseded`) })).toBeVisible();
  await expect(page.getByRole('treeitem', { name: /^Generation 2, changes requested/ })).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'coherence-tree-after-change-request.png'), fullPage: true });

  // G3's page says why and cannot be decided; the API refuses a decision on it.
  await page.goto(`/generations/${g3}`);
  await expect(page.getByRole('note').filter({ hasText: 'which a reviewer sent back for changes' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toBeDisabled();
  const origin = { origin: new URL(page.url()).origin };
  const refused = await page.request.post(`/api/generations/${g3}/decision`, { data: { decision: 'approve', comment: '', revision: 2 }, headers: origin });
  expect(refused.status()).toBe(422);
  expect(((await refused.json()) as { message: string }).message).toMatch(/only generations awaiting review/i);
});

test('a needs-attention generation shows its exits; a reviewer cannot accept it and discards it with a reason', async ({ page }) => {
  await signIn(page, 'lead', `/generations/${seeded.heldId}`);
  const exits = page.getByTestId('attention-exits');
  await expect(exits).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: 'held for a person' })).toBeVisible();
  await expect(exits.getByRole('button', { name: 'Retry ×2' })).toBeEnabled();
  await expect(exits.getByLabel(/Sends the candidate to human review/)).toBeEnabled();
  await page.screenshot({ path: path.join(SHOTS, 'needs-attention-exits.png'), fullPage: true });

  await signIn(page, 'reviewer', `/generations/${seeded.heldId}`);
  await expect(exits.getByRole('button', { name: 'Accept to review' })).toBeDisabled();
  await expect(exits).toContainText('Only a lead may accept');
  const forbidden = await page.request.post(`/api/generations/${seeded.heldId}/attention`, {
    data: { exit: 'accept', justification: 'fine', revision: 0 },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(forbidden.status()).toBe(403);
  expect(((await forbidden.json()) as { error: string }).error).toBe('forbidden');

  await exits.getByLabel(/Marks it superseded/).fill('The check sleeps by design; this candidate is not the problem.');
  await exits.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByRole('note').filter({ hasText: 'superseded: discarded by reviewer@e2e.envolve.test' })).toBeVisible();
  await expect(page.getByTestId('attention-exits')).toHaveCount(0);
  const api = (await (await page.request.get(`/api/lineages/${seeded.heldLineageId}/tree`)).json()) as TreeJson;
  expect(api.tree.generations.map((g) => g.state)).toEqual(['superseded']);
});
