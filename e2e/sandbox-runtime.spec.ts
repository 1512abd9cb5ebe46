// A lineage's sandbox runtime in the browser: its page says which runtime and why, a lead switches
// it to runsc and the page of its seed follows, and the seed's own task.toml asking for runc is
// shown as changing nothing. A reviewer sees the runtime but cannot change it.
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { importTinyTask } from './fixtures/tiny-task.ts';
import { E2E_DATABASE_URL } from './paths.ts';

const LINEAGE = 'runtime-e2e-lineage';
const DEPLOYMENT_DEFAULT = "runc (the deployment's default, ENVOLVE_SANDBOX_RUNTIME)";
let seedVersion = '';

test.beforeAll(() => {
  seedVersion = importTinyTask('runtime-tasks', 'runtime-seed', '[verifier]\ntimeout_sec = 60\n[environment]\nsandbox_runtime = "runc"\n');
  const db = new Database(E2E_DATABASE_URL.replace(/^file:/, ''), { fileMustExist: true });
  try {
    const now = new Date().toISOString().replace('Z', '+00:00');
    db.prepare(
      `INSERT INTO Lineage (id, name, seedVersionId, axisPolicy, effort, synthesiser, seed, config, status, approvalsRequired, createdAt, updatedAt)
       VALUES (?, 'runtime lineage', ?, '{"kind":"round-robin"}', 'low', 'procedural', 1, '{}', 'idle', 1, ?, ?)`,
    ).run(LINEAGE, seedVersion, now, now);
  } finally {
    db.close();
  }
});

test("a lead runs the lineage under runsc; the seed's runc request cannot lower it", async ({ page }) => {
  await signIn(page, 'lead', `/lineages/${LINEAGE}`);
  await expect(page.getByTestId('sandbox-runtime')).toHaveText(DEPLOYMENT_DEFAULT);
  await page.goto(`/environments/${seedVersion}`);
  await expect(page.getByTestId('sandbox-runtime')).toHaveText(
    `Trials run under ${DEPLOYMENT_DEFAULT}. The task asks for sandbox_runtime = "runc", which cannot lower isolation: it changes nothing.`,
  );

  await page.goto(`/lineages/${LINEAGE}`);
  const form = page.getByTestId('runtime-form');
  await form.getByLabel('Runtime').selectOption('runsc');
  await form.getByRole('button', { name: 'Save runtime' }).click();
  await expect(page.getByTestId('runtime-message')).toHaveText('runtime saved: later trials run under runsc');
  await expect(page.getByTestId('sandbox-runtime')).toHaveText("runsc (the lineage's choice)");
  await page.goto(`/environments/${seedVersion}`);
  await expect(page.getByTestId('sandbox-runtime')).toContainText("Trials run under runsc (the lineage's choice).");

  await signIn(page, 'reviewer', `/lineages/${LINEAGE}`);
  await expect(page.getByTestId('sandbox-runtime')).toHaveText("runsc (the lineage's choice)");
  await expect(page.getByTestId('runtime-form')).toHaveCount(0);
  expect((await page.request.patch(`/api/lineages/${LINEAGE}/sandbox-runtime`, { data: { sandboxRuntime: 'runc' } })).status()).toBe(403);
});
