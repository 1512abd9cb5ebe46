// Prepares the e2e database the web server (already started by Playwright) serves: the test
// accounts of e2e/fixtures/auth.ts, every example task, one of them validated in Docker, and
// a lineage of four generations awaiting review for the review and lineage specs.
import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { USERS } from './fixtures/auth.ts';
import { FIXTURE_FILE, type E2eFixture } from './fixtures/data.ts';
import { seedCalibration } from './fixtures/calibration-seed.ts';
import { seedDrift } from './fixtures/drift-seed.ts';
import { seedTrajectories } from './fixtures/trajectories-seed.ts';
import { E2E_DATABASE_URL, E2E_TASK, REPO_ROOT, SEEDED_FILE, type Seeded } from './paths.ts';

const execFileAsync = promisify(execFile);

// The seed of the review fixture lineage, evolved along one axis so every run looks alike.
const LINEAGE_SEED = 'seed-logs-awk';
const LINEAGE_GENERATIONS = 4;

interface ImportOutput {
  results: { name: string; ok: boolean; versionId: string; errors: string[] }[];
}
interface ValidateOutput {
  versionId: string;
  runs: { kind: string; verdict: string; reward: number | null; error: string | null }[];
}
interface EvolveOutput {
  id: string;
  generations: { number: number; state: string }[];
}

const CLI_OPTIONS = {
  cwd: REPO_ROOT,
  env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
  encoding: 'utf8' as const,
  maxBuffer: 64 * 1024 * 1024,
};

function envolve<T>(...args: string[]): T {
  const stdout = execFileSync('node', ['bin/envolve.mjs', ...args, '--json'], { ...CLI_OPTIONS, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(stdout) as T;
}

// For the two slow, container-bound steps, which run side by side.
async function envolveAsync<T>(...args: string[]): Promise<T> {
  try {
    const { stdout } = await execFileAsync('node', ['bin/envolve.mjs', ...args, '--json'], CLI_OPTIONS);
    return JSON.parse(stdout) as T;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`envolve ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: err });
  }
}

function generationIds(lineageId: string): string[] {
  const db = new Database(E2E_DATABASE_URL.replace(/^file:/, ''), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT id FROM Generation WHERE lineageId = ? AND state = 'awaiting-review' ORDER BY number").all(lineageId) as { id: string }[];
    return rows.map((row) => row.id);
  } finally {
    db.close();
  }
}

async function validateExample(versionId: string): Promise<void> {
  const validated = await envolveAsync<ValidateOutput>('env', 'validate', versionId);
  const failed = validated.runs.filter((run) => run.verdict !== 'passed');
  if (validated.runs.length === 0 || failed.length > 0) {
    throw new Error(`validating ${E2E_TASK} did not pass: ${JSON.stringify(validated.runs)}`);
  }
}

async function evolveLineage(seedVersionId: string): Promise<{ lineageId: string; generationIds: string[] }> {
  // No trainer reports on the fixture seed, so the seed funnel waits: the fixture overrides it, on the record.
  const reason = 'e2e fixture: the review and lineage specs need generations; no trainer reports here';
  const args = ['evolve', seedVersionId, '--generations', String(LINEAGE_GENERATIONS), '--axis', 'length', '--force', '--reason', reason];
  const evolved = await envolveAsync<EvolveOutput>(...args);
  const ids = generationIds(evolved.id);
  if (ids.length !== LINEAGE_GENERATIONS) {
    throw new Error(`evolving ${LINEAGE_SEED} left ${ids.length} generations awaiting review: ${JSON.stringify(evolved.generations)}`);
  }
  return { lineageId: evolved.id, generationIds: ids };
}

export default async function globalSetup(): Promise<void> {
  execFileSync('bash', ['scripts/prereqs.sh', 'docker'], { cwd: REPO_ROOT, stdio: 'inherit' });
  // `db migrate` runs migrateDatabase in a child process: in this long-lived runner
  // process, the schema engine's exclusive SQLite lock would shut the CLI out.
  // Idempotent; the server has usually applied them already at start-up.
  envolve('db', 'migrate');

  for (const user of Object.values(USERS)) {
    envolve('users', 'create', '--email', user.email, '--name', user.name, '--role', user.role, '--password', user.password);
  }

  const imported = envolve<ImportOutput>('env', 'import', path.join('examples', 'tasks'));
  const byName = (name: string) => {
    const result = imported.results.find((r) => r.name === name);
    if (!result?.ok) throw new Error(`importing ${name} failed: ${JSON.stringify(imported)}`);
    return result;
  };
  const example = byName(E2E_TASK);
  const seed = byName(LINEAGE_SEED);

  const [, lineage] = await Promise.all([validateExample(example.versionId), evolveLineage(seed.versionId)]);

  const seeded: Seeded = { name: example.name, versionId: example.versionId };
  writeFileSync(SEEDED_FILE, JSON.stringify(seeded));
  const fixture: E2eFixture = {
    seedVersionId: seed.versionId,
    ...lineage,
    examples: Object.fromEntries(imported.results.filter((r) => r.ok).map((r) => [r.name, r.versionId])),
  };
  writeFileSync(FIXTURE_FILE, JSON.stringify(fixture, null, 2));
  await seedDrift();
  await seedCalibration();
  await seedTrajectories();
}
