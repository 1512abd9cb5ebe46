// A lineage's sandbox runtime in the browser: its page says which runtime and why, a lead switches
// it to runsc and the page of its seed follows, and the seed's own task.toml asking for runc is
// shown as changing nothing. A reviewer sees the runtime but cannot change it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { E2E_DATABASE_URL, E2E_DIR, REPO_ROOT } from './paths.ts';

const LINEAGE = 'runtime-e2e-lineage';
const DEPLOYMENT_DEFAULT = "runc (the deployment's default, ENVOLVE_SANDBOX_RUNTIME)";
let seedVersion = '';

function importTask(name: string): string {
  const dir = path.join(E2E_DIR, 'runtime-tasks', name);
  const files = {
    'task.toml': '[verifier]\ntimeout_sec = 60\n[environment]\nsandbox_runtime = "runc"\n',
    'instruction.md': `Write ${name} to /app/out.txt.\n`,
    'environment/Dockerfile': 'FROM envolve/base:bookworm\n',
    'tests/test.sh': '#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n',
  };
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  const stdout = execFileSync('node', ['bin/envolve.mjs', 'env', 'import', dir, '--json'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const result = (JSON.parse(stdout) as { results: { ok: boolean; versionId: string }[] }).results[0];
  if (!result?.ok) throw new Error(`importing ${name} failed`);
  return result.versionId;
}

test.beforeAll(() => {
  seedVersion = importTask('runtime-seed');
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
