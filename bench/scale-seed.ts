// A database at the paper's scale for the dashboard benchmarks: 127 lineages × 15 generations
// (the drift fixture's synthetic lineages, each generation probed with 8 rollouts), topped up to
// 3 attempts per generation and to 100,000 trajectories in total, one of them 500 turns long with
// all its steps; a generation awaiting review with a 200-file residual (bench/review-large-residual.ts);
// accounts (an admin, an annotator, a trainer with an API token) and a calibration set to label.
// Bulk rows go through prepared statements in one transaction: seeding takes seconds, not hours.
//   npx tsx bench/scale-seed.ts --file /tmp/scale.db [--lineages 127] [--generations 15] [--rollouts 100000]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { writeDriftData } from '../e2e/fixtures/drift-seed.ts';
import { createApiToken, createUser } from '../lib/auth/index.ts';
import { createDb } from '../lib/db/index.ts';
import { migrateDatabase } from '../lib/db/migrations.ts';
import { refreshAllSuspicion } from '../lib/trajectories/index.ts';
import { isMain } from './main.ts';

export const SCALE_USERS = {
  admin: { email: 'admin@bench.envolve.test', name: 'Bench Admin', role: 'admin' as const, password: 'bench-admin-password' },
  annotator: { email: 'annotator@bench.envolve.test', name: 'Bench Annotator', role: 'annotator' as const, password: 'bench-annotator-password' },
  trainer: { email: 'trainer@bench.envolve.test', name: 'Bench Trainer', role: 'trainer' as const, password: 'bench-trainer-password' },
};

export interface ScaleSeed {
  file: string;
  seedMs: number;
  lineages: number;
  generations: number;
  attempts: number;
  rollouts: number;
  steps: number;
  validatorRuns: number;
  treeLineageId: string; // 15 generations × 3 attempts
  reviewGenerationId: string;
  longTrajectoryId: string;
  longTurns: number;
  calibrationSetId: string;
  trainerToken: string;
}

const LONG_TURNS = 500;
const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');

function envolve<T>(databaseUrl: string, ...args: string[]): T {
  const stdout = execFileSync('node', ['bin/envolve.mjs', ...args, '--json'], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(stdout) as T;
}

// Generations of the drift fixture have 1–2 attempts (a few 5): add invalid attempts before the
// existing ones until each has `attempts`, keeping the valid one last.
function topUpAttempts(db: Database.Database, attempts: number): void {
  const short = db.prepare('SELECT generationId, COUNT(*) AS n, MIN(createdAt) AS at FROM Attempt GROUP BY generationId HAVING n < ?').all(attempts) as {
    generationId: string;
    n: number;
    at: string;
  }[];
  const shift = db.prepare('UPDATE Attempt SET number = number + 1000 WHERE generationId = ?');
  const unshift = db.prepare('UPDATE Attempt SET number = number - 1000 + ? WHERE generationId = ?');
  const insert = db.prepare(
    `INSERT INTO Attempt (id, generationId, number, candidateVersionId, state, error, durationMs, createdAt, updatedAt) VALUES (?, ?, ?, NULL, 'invalid', 'oracle: reward 0 (expected 1)', 75000, ?, ?)`,
  );
  for (const g of short) {
    const missing = attempts - g.n;
    shift.run(g.generationId);
    unshift.run(missing, g.generationId);
    for (let k = 1; k <= missing; k += 1) insert.run(`${g.generationId}-bench-a${k}`, g.generationId, k, g.at, g.at);
  }
  // Lineages without any attempt rows at a failed sibling keep theirs as the fixture wrote them.
}

// The validators' verdicts on every attempt (oracle and invalid-test), as evolution records them:
// both passed on the attempt that produced the generation's version, the oracle failed on the others.
function addValidatorRuns(db: Database.Database): number {
  const attempts = db
    .prepare(
      `SELECT a.id, a.state, a.createdAt, COALESCE(a.candidateVersionId, g.parentVersionId, l.seedVersionId) AS versionId
    FROM Attempt a JOIN Generation g ON g.id = a.generationId JOIN Lineage l ON l.id = g.lineageId`,
    )
    .all() as { id: string; state: string; createdAt: string; versionId: string }[];
  const insert = db.prepare(
    `INSERT INTO ValidatorRun (id, versionId, kind, verdict, status, reward, expectedReward, attemptId, totalDurationMs, createdAt) VALUES (?, ?, ?, ?, 'completed', ?, ?, ?, 900, ?)`,
  );
  for (const a of attempts) {
    const valid = a.state !== 'invalid';
    insert.run(`${a.id}-oracle`, a.versionId, 'oracle', valid ? 'passed' : 'failed', valid ? 1 : 0, 1, a.id, a.createdAt);
    insert.run(`${a.id}-nop`, a.versionId, 'invalid-test', 'passed', 0, 0, a.id, a.createdAt);
  }
  return attempts.length * 2;
}

// Trainer-side rollouts on the generations' versions until the table holds `total` rows.
function topUpRollouts(db: Database.Database, total: number, now: number): number {
  const existing = (db.prepare('SELECT COUNT(*) AS n FROM Rollout').get() as { n: number }).n;
  const versions = db.prepare('SELECT versionId, id, lineageId FROM Generation WHERE versionId IS NOT NULL ORDER BY id').all() as {
    versionId: string;
    id: string;
    lineageId: string;
  }[];
  const insert =
    db.prepare(`INSERT INTO Rollout (id, attempt, versionId, generationId, lineageId, policy, policyVersion, model, simulated, seed, status, reward, passed, timedOut, turns, durationMs, agentDurationMs, verifierDurationMs, promptTokens, completionTokens, changedFiles, touchedProtected, createdAt, finishedAt)
    VALUES (?, 1, ?, ?, ?, ?, '1', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 900, ?, ?, ?, ?, ?, ?)`);
  const add = Math.max(0, total - existing);
  for (let i = 0; i < add; i += 1) {
    const v = versions[i % versions.length]!;
    const anthropic = i % 4 !== 0;
    const timedOut = i % 53 === 0;
    const reward = timedOut ? 0 : i % 3 === 0 ? 1 : i % 3 === 1 ? 0 : (i % 97) / 97;
    const turns = 5 + ((i * 7) % 90);
    const duration = 1000 + (i % 5000) * 37;
    const at = now - (add - i) * 20_000;
    insert.run(
      `bench-r${i}`,
      v.versionId,
      v.id,
      v.lineageId,
      anthropic ? 'anthropic' : 'simulated',
      anthropic ? 'claude-bench' : null,
      anthropic ? 0 : 1,
      i,
      timedOut ? 'timed-out' : 'completed',
      reward,
      reward >= 1 ? 1 : 0,
      timedOut ? 1 : 0,
      turns,
      duration,
      duration - 900,
      turns * 950,
      turns * 160,
      i % 11 === 0 ? '[]' : '[{"path":"/app/out.txt","size":12,"blobHash":"bench"}]',
      i % 101 === 0 ? 1 : 0,
      iso(at),
      iso(at + duration),
    );
  }
  return add;
}

// One 500-turn trajectory with every step stored; every 25th output is 200 KB (as in the e2e viewer fixture).
function longTrajectory(db: Database.Database, now: number): { id: string; steps: number } {
  const v = db.prepare('SELECT versionId, id, lineageId FROM Generation WHERE versionId IS NOT NULL ORDER BY id LIMIT 1').get() as {
    versionId: string;
    id: string;
    lineageId: string;
  };
  const id = 'bench-long-500';
  db.prepare(
    `INSERT INTO Rollout (id, attempt, versionId, generationId, lineageId, policy, policyVersion, model, simulated, seed, status, reward, passed, turns, durationMs, agentDurationMs, verifierDurationMs, promptTokens, completionTokens, createdAt, finishedAt)
    VALUES (?, 1, ?, ?, ?, 'anthropic', '1', 'claude-bench', 0, 7, 'completed', 0.5, 0, ?, 3600000, 3599000, 1000, ?, ?, ?, ?)`,
  ).run(id, v.versionId, v.id, v.lineageId, LONG_TURNS, LONG_TURNS * 950, LONG_TURNS * 160, iso(now - 60_000), iso(now));
  const step = db.prepare(
    'INSERT INTO TrajectoryStep (rolloutId, stepId, source, message, command, output, exitCode, durationMs) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  step.run(id, 1, 'user', 'Produce /app/report.txt from the access log.', null, null, null, null);
  for (let i = 1; i <= LONG_TURNS; i += 1) {
    const big = i % 25 === 0;
    const output = big
      ? Array.from({ length: 5000 }, (_, l) => `turn ${i} line ${l}: ${'x'.repeat(30)}`).join('\n')
      : `output of turn ${i}\n${'log line\n'.repeat(20)}`;
    step.run(id, i + 1, 'agent', `Turn ${i}: inspecting the log again.`, `grep -c GET /app/access.log # ${i}`, output, i % 7 === 0 ? 1 : 0, 40 + i);
  }
  return { id, steps: LONG_TURNS + 1 };
}

/** The seed written beside `file` by an earlier run, if any. */
export function earlierSeed(file: string): ScaleSeed | null {
  return existsSync(`${file}.seed.json`) && existsSync(file) ? (JSON.parse(readFileSync(`${file}.seed.json`, 'utf8')) as ScaleSeed) : null;
}

export async function seedScaleDatabase(
  file: string,
  opts: { lineages?: number; generations?: number; attempts?: number; rollouts?: number } = {},
): Promise<ScaleSeed> {
  const lineages = opts.lineages ?? 127;
  const generations = opts.generations ?? 15;
  const attempts = opts.attempts ?? 3;
  const rollouts = opts.rollouts ?? 100_000;
  const url = `file:${file}`;
  const started = performance.now();
  await migrateDatabase(url);
  const now = Date.now();
  writeDriftData(file, { lineages, generations, now });

  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  let long = { id: '', steps: 0 };
  sqlite.transaction(() => {
    topUpAttempts(sqlite, attempts);
    addValidatorRuns(sqlite);
    topUpRollouts(sqlite, rollouts - 1, now);
    long = longTrajectory(sqlite, now);
  })();
  const treeLineageId = (
    sqlite.prepare('SELECT lineageId FROM Generation GROUP BY lineageId HAVING COUNT(*) = ? ORDER BY lineageId LIMIT 1').get(generations) as {
      lineageId: string;
    }
  ).lineageId;
  const counts = {
    rollouts: (sqlite.prepare('SELECT COUNT(*) AS n FROM Rollout').get() as { n: number }).n,
    steps: (sqlite.prepare('SELECT COUNT(*) AS n FROM TrajectoryStep').get() as { n: number }).n,
    validatorRuns: (sqlite.prepare('SELECT COUNT(*) AS n FROM ValidatorRun').get() as { n: number }).n,
  };
  sqlite.close();

  const review = JSON.parse(
    execFileSync('npx', ['tsx', 'bench/review-large-residual.ts'], {
      env: { ...process.env, DATABASE_URL: url },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  ) as { generationId: string };

  const db = createDb(url);
  let trainerToken: string;
  try {
    await refreshAllSuspicion(db); // the rollouts above were inserted without their suspicious-order score
    await createUser(db, SCALE_USERS.admin);
    await createUser(db, SCALE_USERS.annotator);
    const trainer = await createUser(db, SCALE_USERS.trainer);
    trainerToken = (await createApiToken(db, trainer.id, 'bench')).token;
  } finally {
    await db.$disconnect();
  }
  const set = envolve<{ id: string }>(
    url,
    'calibration',
    'create',
    '--lineage',
    treeLineageId,
    '--size',
    '50',
    '--pass-share',
    '0.5',
    '--seed',
    '1',
    '--overlap',
    '1',
    '--annotators',
    SCALE_USERS.annotator.email,
    '--name',
    'bench labelling',
  );

  return {
    file,
    seedMs: Math.round(performance.now() - started),
    lineages,
    generations,
    attempts,
    rollouts: counts.rollouts,
    steps: counts.steps,
    validatorRuns: counts.validatorRuns,
    treeLineageId,
    reviewGenerationId: review.generationId,
    longTrajectoryId: long.id,
    longTurns: LONG_TURNS,
    calibrationSetId: set.id,
    trainerToken,
  };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      file: { type: 'string' },
      lineages: { type: 'string', default: '127' },
      generations: { type: 'string', default: '15' },
      rollouts: { type: 'string', default: '100000' },
    },
  });
  if (!values.file) throw new Error('--file PATH: where to write the database (a new file)');
  const seed = await seedScaleDatabase(values.file, {
    lineages: Number(values.lineages),
    generations: Number(values.generations),
    rollouts: Number(values.rollouts),
  });
  // Beside the throwaway database, for bench/dashboard-load.ts and bench/browser.ts --file.
  writeFileSync(`${values.file}.seed.json`, JSON.stringify(seed, null, 2));
  console.log(JSON.stringify({ ...seed, trainerToken: '(in the .seed.json file)' }, null, 2));
}
