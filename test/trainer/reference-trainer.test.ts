// The reference trainer (examples/trainer/train.py, through the Python client) against a real
// `envolve web`: real rollouts of the simulated policy in Docker, reported with the step as the
// policy version to a lineage gated by the trainer's groups. Read from the server's answers:
// the frontier holds while the policy is weak, advances when its newest checkpoint clears 6/8, a
// group of an older checkpoint releases nothing even at 8/8, and a version the newest checkpoint
// saturates (8/8: zero advantage for GRPO) leaves the batch. Prints the step-by-step table (and
// writes it to test-results/reference-trainer.md).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { GenerationState } from '../../lib/states/states.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { newSeedSequence, renderEnvironment } from '../../lib/synth/procedural/index.ts';
import { accountToken, REPO_ROOT, SERVER_START_BUDGET_MS, startEnvolveWeb, type RunningServer } from '../fixtures/trainer-server.ts';

const execFileAsync = promisify(execFile);
// Debian's python3 (scripts/prereqs.sh python3), the one the client is tested with, whatever else is on PATH.
const PYTHON = '/usr/bin/python3';

// The lineage: a 1-step seed and two generations, each one step longer (the length axis).
const TASK_SEED = 11;
const GENERATIONS = 2;
const GROUP_SIZE = 8;
const ROLLOUT_WORKERS = 2;
// The simulated checkpoints: step 1 solves everything, step 2 regressed (a collapse in training),
// steps 3 on are strong again. Checkpoint 1's late group after step 2 is the stale one: 8/8 by
// construction (competence 1) on a frontier with an approved generation after it, and it must
// release nothing.
const COMPETENCE_SCHEDULE = [1.0, 0.4, 1.0];
const STALE_CHECKPOINT = 1;
// A simulated rollout takes seconds; the agent's budget is the loop's --agent-timeout.
const AGENT_TIMEOUT_SEC = 120;

interface Group {
  versionId: string;
  lineageId: string;
  generation: number;
  passes?: number;
  size?: number;
  released?: number[];
  frontier?: number | null;
  error?: string;
}
interface LeftOut {
  total?: number;
  by_reason?: Record<string, number>;
  environments?: { versionId: string; generation: number; reason: string }[];
}
interface StepRecord {
  step: number;
  policyVersion: string;
  competence: number;
  leftOut: LeftOut; // the batch answer's left_out: what the server did not serve, and why
  environments: { versionId: string; generation: number }[];
  groups: Group[];
}

let testDb: TestDb;
let server: RunningServer;
let token = '';
let workDir = '';
let lineageId = '';
const versions: string[] = []; // by generation number

const ladder = Array.from({ length: GENERATIONS + 1 }, (_, generation) => {
  const sequence = newSeedSequence(TASK_SEED, { steps: generation + 1 });
  return { sequence, bundle: renderEnvironment(sequence, { seed: TASK_SEED, name: 'reference-trainer-ladder' }) };
});

// The budgets the loop waits on, from the tasks' own task.toml: a rollout is its agent's budget
// (the loop's --agent-timeout) and its verifier's; a version's image is built once, within its build budget.
function taskBudgetsMs(): { rollout: number; build: number } {
  let rollout = 0;
  let build = 0;
  for (const { bundle } of ladder) {
    const toml = parse(bundle.files.find((f) => f.path === 'task.toml')!.content.toString('utf8')) as {
      verifier: { timeout_sec: number };
      environment: { build_timeout_sec: number };
    };
    rollout = Math.max(rollout, (AGENT_TIMEOUT_SEC + toml.verifier.timeout_sec) * 1000);
    build = Math.max(build, toml.environment.build_timeout_sec * 1000);
  }
  return { rollout, build };
}

// Whatever one step may take: one group per environment served (one lineage: one), its rollouts
// ROLLOUT_WORKERS at a time, a version's image built once, the loop's and its CLI's start.
const BUDGETS = taskBudgetsMs();
const STEP_BUDGET_MS = Math.ceil(GROUP_SIZE / ROLLOUT_WORKERS) * BUDGETS.rollout + BUDGETS.build + SERVER_START_BUDGET_MS;
const STEPS = 6; // checkpoints 1-2, the late checkpoint 1, checkpoints 3-5

async function storeLadder(db: TestDb['db']): Promise<void> {
  for (const [generation, { sequence, bundle }] of ladder.entries()) {
    const metadata =
      generation === 0
        ? { kind: 'seed' as const, generation: 0, parents: [], sequence }
        : { kind: 'generation' as const, generation, parents: [versions[generation - 1]!], sequence };
    versions.push(await storeBundle(db, bundle, { source: generation === 0 ? 'import' : 'evolution', metadata }));
  }
  const lineage = await db.lineage.create({
    data: {
      name: 'reference trainer lineage',
      seedVersionId: versions[0]!,
      axisPolicy: JSON.stringify({ kind: 'fixed', axis: 'length' }),
      effort: 'low',
      synthesiser: 'procedural',
      seed: TASK_SEED,
      frontier: 0,
      probePolicy: 'trainer',
    },
  });
  lineageId = lineage.id;
  for (let number = 1; number <= GENERATIONS; number++) {
    await db.generation.create({
      data: {
        lineageId,
        number,
        parentVersionId: versions[number - 1]!,
        versionId: versions[number]!,
        axis: 'length',
        effort: 'low',
        state: GenerationState.approved,
      },
    });
  }
}

async function train(firstStep: number, steps: number): Promise<StepRecord[]> {
  const args = [
    path.join(REPO_ROOT, 'examples/trainer/train.py'),
    ...['--url', server.url, '--first-step', String(firstStep), '--steps', String(steps), '--batch-size', '4'],
    ...['--group-size', String(GROUP_SIZE), '--rollout-workers', String(ROLLOUT_WORKERS), '--agent-timeout', String(AGENT_TIMEOUT_SEC)],
    ...['--competence-schedule', COMPETENCE_SCHEDULE.join(','), '--work-dir', workDir],
  ];
  const { stdout } = await execFileAsync(PYTHON, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ENVOLVE_TOKEN: token },
    timeout: steps * STEP_BUDGET_MS,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`train.py failed: ${err.message}\n${err.stderr ?? ''}\nserver:\n${server.output()}`);
  });
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as StepRecord);
}

function leftOut(said: LeftOut): string {
  const environments = said.environments ?? [];
  return environments.length ? environments.map((e) => `G${e.generation} ${e.reason}`).join(', ') : 'nothing';
}

// The step-by-step table, from the server's answers as the loop recorded them.
function table(runs: { label: string; record: StepRecord }[]): string {
  let frontierBefore = 0;
  const rows = runs.map(({ label, record }) => {
    const groups = record.groups.map((g) => (g.error ? `G${g.generation} not reported` : `G${g.generation} ${g.passes}/${g.size}`)).join(', ') || 'none';
    const frontier = record.groups.findLast((g) => g.frontier != null)?.frontier ?? frontierBefore;
    const released = record.groups.flatMap((g) => g.released ?? []);
    const before = frontierBefore;
    frontierBefore = frontier;
    return `| ${label} | ${record.competence} | ${record.environments.length} | ${groups} | ${before} → ${frontier}${released.length ? ` (released G${released.join(', G')})` : ''} | ${leftOut(record.leftOut)} |`;
  });
  return [
    '| checkpoint (policy version) | competence | batch size (distinct) | groups reported | frontier | left out of the batch (server) |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

beforeAll(async () => {
  await ensureBaseImage({ docker: new DockerSandbox().docker, progress: () => {} });
  testDb = await createTestDb();
  await storeLadder(testDb.db);
  token = await accountToken(testDb.db, 'trainer@reference.test', 'trainer');
  workDir = mkdtempSync(path.join(tmpdir(), 'envolve-reference-trainer-'));
  server = await startEnvolveWeb(testDb.url);
}, SERVER_START_BUDGET_MS * 2);

afterAll(async () => {
  await server?.stop();
  await testDb?.cleanup();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('the reference trainer', () => {
  it(
    'holds the frontier while weak, advances on its newest checkpoint, ignores a stale checkpoint and drops saturated versions from the batch',
    async () => {
      const runs: { label: string; record: StepRecord }[] = [];
      for (const record of await train(1, 2)) runs.push({ label: record.policyVersion, record });
      // A rollout worker that still had checkpoint 1's weights reports after checkpoint 2 did.
      for (const record of await train(STALE_CHECKPOINT, 1)) runs.push({ label: `${record.policyVersion} (late, after 2)`, record });
      for (const record of await train(3, 3)) runs.push({ label: record.policyVersion, record });
      const report = table(runs);
      mkdirSync(path.join(REPO_ROOT, 'test-results'), { recursive: true });
      writeFileSync(path.join(REPO_ROOT, 'test-results', 'reference-trainer.md'), `${report}\n`);
      console.log(`reference trainer, lineage ${lineageId} (G0–G${GENERATIONS}, ${GROUP_SIZE} rollouts per group):\n${report}`);

      let frontier = 0;
      let newest = 0; // the newest checkpoint that has reported
      const saturatedBy = new Map<string, number>(); // version -> the checkpoint whose group passed 8/8
      const saturatedNow = (versionId: string) => saturatedBy.get(versionId) === newest;
      const seen = { held: 0, advanced: 0, staleIgnored: 0, saturatedLeftOut: 0 };
      for (const { label, record } of runs) {
        const checkpoint = Number(record.policyVersion);
        // A batch never serves a version the newest checkpoint saturated, and says it left the frontier out.
        for (const env of record.environments) expect(saturatedNow(env.versionId), `${label}: served a saturated version`).toBe(false);
        if (saturatedNow(versions[frontier]!)) {
          expect(record.leftOut.environments).toContainEqual(expect.objectContaining({ versionId: versions[frontier], reason: 'saturated' }));
          expect(record.leftOut.by_reason?.saturated).toBeGreaterThan(0);
          seen.saturatedLeftOut++;
        }
        for (const group of record.groups) {
          expect(group.error, `${label}: ${group.error}`).toBeUndefined();
          expect(group.generation).toBeLessThanOrEqual(frontier); // the frontier, or a fallback below it
          const clears = group.passes! / group.size! >= 0.75;
          const stale = checkpoint < newest;
          newest = Math.max(newest, checkpoint);
          if (group.generation < frontier) {
            // A fallback below the frontier: it moves no lineage, so the server names none.
            expect(group.released).toEqual([]);
            expect(group.frontier).toBeNull();
          } else if (stale) {
            expect(group.released, `${label}: a stale checkpoint released`).toEqual([]);
            expect(group.frontier).toBe(frontier);
            if (clears && frontier < GENERATIONS) seen.staleIgnored++;
          } else if (clears && frontier < GENERATIONS) {
            expect(group.released).toEqual([frontier + 1]);
            expect(group.frontier).toBe(frontier + 1);
            seen.advanced++;
          } else {
            expect(group.released).toEqual([]);
            expect(group.frontier).toBe(frontier);
            if (!clears) seen.held++;
          }
          if (!stale && group.passes === group.size) saturatedBy.set(group.versionId, checkpoint);
          frontier = group.frontier ?? frontier;
        }
      }
      expect(seen.held, 'the frontier held for a weak checkpoint').toBeGreaterThan(0);
      expect(seen.advanced, 'the newest checkpoint advanced the frontier').toBeGreaterThan(0);
      expect(frontier).toBe(GENERATIONS);
      expect(seen.staleIgnored, 'a stale checkpoint cleared 6/8 and released nothing').toBeGreaterThan(0);
      expect(seen.saturatedLeftOut, 'the saturated frontier left the batch, and the server said so').toBeGreaterThan(0);
    },
    STEPS * STEP_BUDGET_MS,
  );
});
