// Puts one real environment into the e2e database: migrate, import an example
// task with the CLI, validate it in Docker. The web server (already started by
// Playwright on the same database) then shows what a user would see.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { E2E_DATABASE_URL, E2E_TASK, REPO_ROOT, SEEDED_FILE, type Seeded } from './paths.ts';

interface ImportOutput {
  results: { name: string; ok: boolean; versionId: string; errors: string[] }[];
}
interface ValidateOutput {
  versionId: string;
  runs: { kind: string; verdict: string; reward: number | null; error: string | null }[];
}

function envolve<T>(...args: string[]): T {
  const stdout = execFileSync('node', ['bin/envolve.mjs', ...args, '--json'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(stdout) as T;
}

export default async function globalSetup(): Promise<void> {
  execFileSync('bash', ['scripts/prereqs.sh', 'docker'], { cwd: REPO_ROOT, stdio: 'inherit' });
  // `db migrate` runs migrateDatabase in a child process: in this long-lived runner
  // process, the schema engine's exclusive SQLite lock would shut the CLI out.
  // Idempotent; the server has usually applied them already at start-up.
  envolve('db', 'migrate');

  const imported = envolve<ImportOutput>('env', 'import', path.join('examples', 'tasks', E2E_TASK));
  const result = imported.results[0];
  if (!result?.ok) throw new Error(`importing ${E2E_TASK} failed: ${JSON.stringify(imported)}`);

  const validated = envolve<ValidateOutput>('env', 'validate', result.versionId);
  const failed = validated.runs.filter((run) => run.verdict !== 'passed');
  if (validated.runs.length === 0 || failed.length > 0) {
    throw new Error(`validating ${E2E_TASK} did not pass: ${JSON.stringify(validated.runs)}`);
  }

  const seeded: Seeded = { name: result.name, versionId: result.versionId };
  writeFileSync(SEEDED_FILE, JSON.stringify(seeded));
}
