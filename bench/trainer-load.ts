// Trainers under load, with faults: `envolve web` on a private SQLite database, N concurrent
// trainers (each its own account and token) asking for batches of 4 and reporting a group for each
// environment served, with an Idempotency-Key each, while connections are dropped mid-request (the client aborts and retries
// with the same key), answered groups are sent again (a replay must answer the same group, 200 with
// Idempotency-Replayed), and checkpoints arrive out of order (a trainer's late group of an older
// step). Then the database is checked: every answered key is one stored group, no group is stored
// twice, and every release happened once, by a group that cleared the rule. Prints p50/p95/p99 of
// POST /groups and GET /batch, groups per second and the load average.
// Serves this checkout's production build (`npx next build`, or ENVOLVE_NEXT_DIST_DIR), or with
// --build builds the committed code at HEAD in a throwaway worktree first (bench/web-build.ts).
//   npm run bench:trainer -- [--build] [--trainers 20] [--groups 25] [--lineages 10] [--drop 0.1] [--replay 0.1] [--json]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiToken, createUser } from '../lib/auth/index.ts';
import { createDb, type Db } from '../lib/db/index.ts';
import { migrateDatabase } from '../lib/db/migrations.ts';
import { GenerationState } from '../lib/states/index.ts';
import { seedEnvironment } from '../test/fixtures/dashboard-rows.ts';
import { startEnvolveWeb } from '../test/fixtures/trainer-server.ts';
import { isMain } from './main.ts';
import { buildCommittedWeb, type WebBuild } from './web-build.ts';

export interface TrainerLoadOptions {
  trainers: number;
  groups: number; // per trainer
  lineages: number;
  generations: number; // approved generations per lineage, waiting to be released
  dropRate: number; // share of reports whose first attempt is aborted mid-request
  replayRate: number; // share of answered reports sent again with the same key
  staleRate: number; // share of reports of an older checkpoint, after a newer one reported
}

export interface Latency {
  count: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

export interface TrainerLoadResult {
  options: TrainerLoadOptions;
  wallSeconds: number;
  groupsPerSecond: number; // stored groups over the wall time of the load
  serverCpuMsPerGroup: number; // the server process's CPU time (user + system) during the load, per stored group
  post: Latency; // POST /groups attempts that were answered (not the aborted ones)
  batch: Latency;
  attempts: { dropped: number; retried: number; replays: number; replayAnswersOk: number; stale: number; errors: string[] };
  stored: { keysAnswered: number; groups: number; keys: number; groupsWithoutKey: number; groupIdsPerKey: number };
  releases: { generations: number; releaseEvents: number; doubleReleases: number; belowRule: number; frontiersMatch: boolean };
  loadAverage: { before: number[]; after: number[]; cores: number };
  ok: boolean;
  problems: string[];
}

// Nearest-rank percentile.
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function latency(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { count: sorted.length, p50Ms: round(percentile(sorted, 50)), p95Ms: round(percentile(sorted, 95)), p99Ms: round(percentile(sorted, 99)) };
}

// CPU time (user + system) a process has used, from /proc: unlike wall times, it barely moves with
// what else runs on the machine, so it compares runs taken under different loads.
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticksPerSecond = 100; // USER_HZ, 100 on Linux
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

// A seeded generator, so two runs with the same options inject the same faults.
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function seedLineages(db: Db, options: TrainerLoadOptions): Promise<void> {
  for (let l = 0; l < options.lineages; l++) {
    const seed = await seedEnvironment(db, { name: `bench-trainer-${l}-g0` });
    const lineage = await db.lineage.create({
      data: {
        name: `bench trainer lineage ${l}`,
        seedVersionId: seed,
        axisPolicy: '{"kind":"round-robin"}',
        effort: 'low',
        synthesiser: 'procedural',
        seed: 1,
        frontier: 0,
        probePolicy: 'trainer',
      },
    });
    let parent = seed;
    for (let g = 1; g <= options.generations; g++) {
      const versionId = await seedEnvironment(db, { name: `bench-trainer-${l}-g${g}` });
      await db.generation.create({
        data: { lineageId: lineage.id, number: g, parentVersionId: parent, versionId, axis: 'length', effort: 'low', state: GenerationState.approved },
      });
      parent = versionId;
    }
  }
}

interface Trainer {
  index: number;
  token: string;
}

interface Observed {
  post: number[];
  batch: number[];
  answered: Map<string, Set<string>>; // key -> every groupId answered for it
  dropped: number;
  retried: number;
  replays: number;
  replayAnswersOk: number;
  stale: number;
  errors: string[];
}

// How long one report may keep being retried before the bench calls it lost.
const REPORT_ATTEMPTS = 20;
// Environments asked for per batch (the reference trainer asks for 8 by default).
const BATCH_SIZE = 4;

// As the reference trainer does (examples/trainer/train.py): pull a batch, then report one group for
// each distinct environment it served, until the trainer has reported its share.
async function runTrainer(url: string, trainer: Trainer, options: TrainerLoadOptions, seen: Observed): Promise<void> {
  const random = rng(trainer.index + 1);
  const auth = { authorization: `Bearer ${trainer.token}` };
  let checkpoint = 0;
  let g = 0;
  for (let step = 0; g < options.groups; step++) {
    const started = performance.now();
    const batchResponse = await fetch(`${url}/api/v1/trainer/batch?size=${BATCH_SIZE}&seed=${trainer.index * 1000 + step}`, { headers: auth });
    const batch = (await batchResponse.json()) as { environments?: { versionId: string }[] };
    seen.batch.push(performance.now() - started);
    const versions = [...new Set((batch.environments ?? []).map((e) => e.versionId))];
    if (!batchResponse.ok || versions.length === 0) {
      seen.errors.push(`trainer ${trainer.index}: batch ${batchResponse.status} with ${versions.length} environments`);
      g++;
      continue;
    }
    for (const versionId of versions) {
      if (g >= options.groups) break;
      await reportGroup(url, trainer, g, versionId, checkpointOf(g), random, options, seen);
      g++;
    }
  }

  // Every fifth group moves to the next checkpoint; now and then a late group of the one before.
  function checkpointOf(group: number): number {
    if (group % 5 === 0) checkpoint++;
    const stale = checkpoint > 1 && random() < options.staleRate;
    if (stale) seen.stale++;
    return stale ? checkpoint - 1 : checkpoint;
  }
}

async function reportGroup(
  url: string,
  trainer: Trainer,
  g: number,
  versionId: string,
  checkpoint: number,
  random: () => number,
  options: TrainerLoadOptions,
  seen: Observed,
): Promise<void> {
  const auth = { authorization: `Bearer ${trainer.token}` };
  const passes = random() < 0.6 ? 7 : 3;
  const rewards = Array.from({ length: 8 }, (_, i) => (i < passes ? 1 : 0));
  const body = JSON.stringify({ versionId, rewards, policy: 'trainer', policyVersion: `step-${checkpoint}` });
  const key = `bench-${trainer.index}-${g}`;
  const headers = { ...auth, 'content-type': 'application/json', 'idempotency-key': key };
  let groupId: string | null = null;
  for (let attempt = 0; attempt < REPORT_ATTEMPTS && groupId === null; attempt++) {
    if (attempt > 0) seen.retried++;
    // A dropped connection: the request is sent and abandoned at a random moment of its handling.
    const drop = attempt === 0 && random() < options.dropRate;
    const controller = new AbortController();
    const timer = drop ? setTimeout(() => controller.abort(), 1 + random() * 40) : undefined;
    const sent = performance.now();
    try {
      const response = await fetch(`${url}/api/v1/trainer/groups`, { method: 'POST', headers, body, signal: controller.signal });
      const answer = (await response.json()) as { groupId?: string; message?: string };
      seen.post.push(performance.now() - sent);
      if (response.status === 201 || response.status === 200) groupId = answer.groupId ?? null;
      else if (response.status < 500) {
        seen.errors.push(`trainer ${trainer.index} group ${g}: ${response.status} ${answer.message}`);
        break;
      }
    } catch (err) {
      if (!drop) seen.errors.push(`trainer ${trainer.index} group ${g}: ${(err as Error).message}`);
      else seen.dropped++;
    } finally {
      clearTimeout(timer);
    }
  }
  if (groupId === null) {
    seen.errors.push(`trainer ${trainer.index} group ${g}: no answer after ${REPORT_ATTEMPTS} attempts`);
    return;
  }
  const ids = seen.answered.get(key) ?? new Set<string>();
  ids.add(groupId);
  seen.answered.set(key, ids);
  if (random() < options.replayRate) {
    seen.replays++;
    const sent = performance.now();
    const again = await fetch(`${url}/api/v1/trainer/groups`, { method: 'POST', headers, body });
    const answer = (await again.json()) as { groupId?: string };
    seen.post.push(performance.now() - sent);
    if (again.status === 200 && again.headers.get('idempotency-replayed') === 'true' && answer.groupId === groupId) seen.replayAnswersOk++;
    if (answer.groupId) ids.add(answer.groupId);
  }
}

async function checkDatabase(db: Db, seen: Observed, problems: string[]): Promise<Pick<TrainerLoadResult, 'stored' | 'releases'>> {
  const groups = await db.probeGroup.findMany({ where: { purpose: 'trainer' }, select: { id: true, passes: true, size: true } });
  const keys = await db.idempotencyKey.findMany({ select: { key: true, groupId: true } });
  const keyOfGroup = new Map(keys.map((k) => [k.groupId, k.key]));
  const groupIdsPerKey = Math.max(0, ...[...seen.answered.values()].map((ids) => ids.size));
  const groupsWithoutKey = groups.filter((g) => !keyOfGroup.has(g.id)).length;
  for (const [key, ids] of seen.answered) {
    if (ids.size !== 1) problems.push(`key ${key} was answered with ${ids.size} groups`);
    const stored = keys.find((k) => k.key === key);
    if (!stored || !ids.has(stored.groupId)) problems.push(`key ${key}: the answered group is not the one stored for it`);
  }
  if (groups.length !== seen.answered.size) problems.push(`${groups.length} groups stored for ${seen.answered.size} answered keys`);
  if (groupsWithoutKey > 0) problems.push(`${groupsWithoutKey} groups stored without a key (a double)`);

  const releaseEvents = await db.auditEvent.findMany({ where: { action: 'generation.release' }, select: { subjectId: true } });
  const perGeneration = new Map<string, number>();
  for (const e of releaseEvents) perGeneration.set(e.subjectId, (perGeneration.get(e.subjectId) ?? 0) + 1);
  const doubleReleases = [...perGeneration.values()].filter((n) => n > 1).length;
  const released = await db.generation.findMany({
    where: { state: GenerationState.released },
    select: { id: true, lineageId: true, number: true, releasedByGroupId: true },
  });
  const byId = new Map(groups.map((g) => [g.id, g]));
  const belowRule = released.filter((g) => {
    const group = g.releasedByGroupId ? byId.get(g.releasedByGroupId) : undefined;
    return !group || group.passes / group.size < 0.75;
  }).length;
  const lineages = await db.lineage.findMany({ select: { id: true, frontier: true } });
  const frontiersMatch = lineages.every((l) => (l.frontier ?? 0) === released.filter((g) => g.lineageId === l.id).length);
  if (doubleReleases > 0) problems.push(`${doubleReleases} generations released more than once`);
  if (released.length !== perGeneration.size) problems.push(`${released.length} released generations, ${perGeneration.size} with a release event`);
  if (belowRule > 0) problems.push(`${belowRule} releases by a group below the rule`);
  if (!frontiersMatch) problems.push('a frontier does not match its released generations');
  return {
    stored: { keysAnswered: seen.answered.size, groups: groups.length, keys: keys.length, groupsWithoutKey, groupIdsPerKey },
    releases: { generations: released.length, releaseEvents: releaseEvents.length, doubleReleases, belowRule, frontiersMatch },
  };
}

export async function trainerLoad(options: TrainerLoadOptions, progress: (m: string) => void = () => {}, web?: WebBuild): Promise<TrainerLoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'envolve-bench-trainer-'));
  const url = `file:${join(dir, 'envolve.db')}`;
  try {
    await migrateDatabase(url);
    const db = createDb(url);
    await seedLineages(db, options);
    const trainers: Trainer[] = [];
    for (let i = 0; i < options.trainers; i++) {
      const user = await createUser(db, { email: `trainer-${i}@bench.test`, name: `trainer ${i}`, role: 'trainer', password: 'correct horse battery staple' });
      trainers.push({ index: i, token: (await createApiToken(db, user.id, `bench trainer ${i}`, 'trainer')).token });
    }
    progress(`seeded ${options.lineages} lineages × ${options.generations} approved generations and ${options.trainers} trainers in ${dir}`);
    const server = web ? await startEnvolveWeb(url, { ENVOLVE_NEXT_DIST_DIR: web.distDir }, web.dir) : await startEnvolveWeb(url);
    const seen: Observed = { post: [], batch: [], answered: new Map(), dropped: 0, retried: 0, replays: 0, replayAnswersOk: 0, stale: 0, errors: [] };
    const before = loadavg();
    let wallSeconds: number;
    let serverCpuMs: number;
    try {
      progress(`envolve web at ${server.url}; ${options.trainers} trainers × ${options.groups} groups`);
      const cpuBefore = processCpuMs(server.pid);
      const started = performance.now();
      await Promise.all(trainers.map((t) => runTrainer(server.url, t, options, seen)));
      wallSeconds = (performance.now() - started) / 1000;
      serverCpuMs = processCpuMs(server.pid) - cpuBefore;
    } finally {
      await server.stop();
    }
    const after = loadavg();
    const problems: string[] = [...seen.errors];
    const checked = await checkDatabase(db, seen, problems);
    await db.$disconnect();
    if (seen.replayAnswersOk !== seen.replays)
      problems.push(`${seen.replays - seen.replayAnswersOk} replays did not answer the first group with the replay header`);
    const round = (l: number[]) => l.map((n) => Math.round(n * 100) / 100);
    return {
      options,
      wallSeconds: Math.round(wallSeconds * 100) / 100,
      groupsPerSecond: Math.round((checked.stored.groups / wallSeconds) * 10) / 10,
      serverCpuMsPerGroup: Math.round((serverCpuMs / Math.max(1, checked.stored.groups)) * 10) / 10,
      post: latency(seen.post),
      batch: latency(seen.batch),
      attempts: {
        dropped: seen.dropped,
        retried: seen.retried,
        replays: seen.replays,
        replayAnswersOk: seen.replayAnswersOk,
        stale: seen.stale,
        errors: seen.errors,
      },
      ...checked,
      loadAverage: { before: round(before), after: round(after), cores: cpus().length },
      ok: problems.length === 0,
      problems,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(r: TrainerLoadResult): string {
  const { options: o } = r;
  return [
    `trainer load: ${o.trainers} trainers × ${o.groups} groups over ${o.lineages} lineages (${o.generations} approved generations each), SQLite`,
    `faults: ${r.attempts.dropped} connections dropped mid-request (${r.attempts.retried} retries), ${r.attempts.replays} replays (${r.attempts.replayAnswersOk} answered the first group, 200 + Idempotency-Replayed), ${r.attempts.stale} late groups of an older checkpoint`,
    `POST /groups  p50 ${r.post.p50Ms} ms  p95 ${r.post.p95Ms} ms  p99 ${r.post.p99Ms} ms  (${r.post.count} answered requests)`,
    `GET /batch    p50 ${r.batch.p50Ms} ms  p95 ${r.batch.p95Ms} ms  p99 ${r.batch.p99Ms} ms  (${r.batch.count} requests)`,
    `${r.stored.groups} groups stored in ${r.wallSeconds} s: ${r.groupsPerSecond} groups/s; the server used ${r.serverCpuMsPerGroup} ms of CPU per group (batches included)`,
    `exactly once: ${r.stored.keysAnswered} keys answered, ${r.stored.groups} groups, ${r.stored.keys} keys stored, ${r.stored.groupsWithoutKey} groups without a key, at most ${r.stored.groupIdsPerKey} group id per key`,
    `releases: ${r.releases.generations} generations released, ${r.releases.releaseEvents} release events, ${r.releases.doubleReleases} released twice, ${r.releases.belowRule} below the rule, frontiers ${r.releases.frontiersMatch ? 'match' : 'DO NOT match'} their releases`,
    `load average (1, 5, 15 min) on ${r.loadAverage.cores} cores: before ${r.loadAverage.before.join(' ')}, after ${r.loadAverage.after.join(' ')}`,
    r.ok ? 'OK: nothing lost, nothing doubled, every release once' : `FAILED:\n  ${r.problems.slice(0, 20).join('\n  ')}`,
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      trainers: { type: 'string', default: '20' },
      groups: { type: 'string', default: '25' },
      lineages: { type: 'string', default: '10' },
      generations: { type: 'string', default: '3' },
      drop: { type: 'string', default: '0.1' },
      replay: { type: 'string', default: '0.1' },
      stale: { type: 'string', default: '0.1' },
      json: { type: 'boolean', default: false },
      build: { type: 'boolean', default: false },
    },
  });
  const count = (name: string, value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: expected a whole number ≥ 1, not ${value}`);
    return n;
  };
  const share = (name: string, value: string) => {
    const n = Number(value);
    if (!(n >= 0 && n <= 1)) throw new Error(`--${name}: expected a share from 0 to 1, not ${value}`);
    return n;
  };
  const web = values.build ? buildCommittedWeb((m) => console.error(m)) : undefined;
  const result = await trainerLoad(
    {
      trainers: count('trainers', values.trainers),
      groups: count('groups', values.groups),
      lineages: count('lineages', values.lineages),
      generations: count('generations', values.generations),
      dropRate: share('drop', values.drop),
      replayRate: share('replay', values.replay),
      staleRate: share('stale', values.stale),
    },
    (m) => console.error(m),
    web,
  ).finally(() => web?.remove());
  console.log(values.json ? JSON.stringify(result, null, 2) : report(result));
  process.exitCode = result.ok ? 0 : 1;
}
