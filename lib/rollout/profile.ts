// `envolve profile`: an environment's own latency and how far it scales. Rollouts run first one
// at a time (their wall times give p50/p95/p99), then at 2, 4, 8… at once until throughput stops
// rising by more than 10% or errors start; the last level that still improved is the concurrency
// ceiling. Each level's rollouts form a ProbeGroup of purpose 'profile'; the result is stored as
// an EnvironmentProfile row with the image id and the whole curve.
import type { Db } from '../db/client.ts';
import { bundleFile } from '../env/bundle.ts';
import { loadBundle } from '../env/store.ts';
import { parseTaskConfig } from '../env/task-config.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { finishGroup } from '../scheduler/groups.ts';
import { mapConcurrent } from '../scheduler/pool.ts';
import { concurrencyCeiling, concurrencyLevels, improved, latencySummary, rolloutsPerMinute, type CurvePoint, type LatencySummary } from './profile-math.ts';
import { runRollout, type RolloutSummary } from './run.ts';
import type { Policy } from './types.ts';

export interface ProfileRequest {
  versionId: string;
  policy: Policy;
  samples?: number; // rollouts at concurrency 1 (the latency sample); default 10
  maxConcurrency?: number; // default 8
  seed?: number; // rollout i of a level runs with seed + i; default 1
  progress?: (message: string) => void;
}

export interface ProfileReport extends LatencySummary {
  profileId: string;
  versionId: string;
  imageId: string;
  policy: string;
  samples: number;
  concurrencyCeiling: number;
  // The highest level tried still improved: the real ceiling is at least this, maybe higher.
  ceilingIsLowerBound: boolean;
  curve: CurvePoint[];
  groupIds: string[];
  latencyMeasuredAt: 1;
}

export const DEFAULT_PROFILE_SAMPLES = 10;
export const DEFAULT_MAX_CONCURRENCY = 8;

// Every level runs whole rounds (each slot at least twice) so the last round is not half empty.
export function rolloutsAtLevel(concurrency: number, samples: number): number {
  if (concurrency === 1) return samples;
  return concurrency * Math.max(2, Math.ceil(samples / concurrency));
}

export async function profileEnvironment(deps: { db: Db; sandbox: Sandbox }, req: ProfileRequest): Promise<ProfileReport> {
  const { db } = deps;
  const samples = req.samples ?? DEFAULT_PROFILE_SAMPLES;
  if (!Number.isInteger(samples) || samples < 1) throw new Error(`samples must be a positive integer, got ${samples}`);
  const levels = concurrencyLevels(req.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
  const seed = req.seed ?? 1;
  const progress = req.progress ?? (() => {});

  // Build (or find) the image first, so no level pays for the build.
  const bundle = await loadBundle(db, req.versionId);
  const config = parseTaskConfig(bundleFile(bundle, 'task.toml')?.content.toString('utf8') ?? '');
  if (!config.ok) throw new Error(`task.toml: ${config.error}`);
  const build = await deps.sandbox.buildEnvironmentImage(bundle, { timeoutSec: config.config.environment.build_timeout_sec });
  progress(`image ${build.imageId.slice(7, 19)} ${build.cached ? '(cached)' : `built in ${build.durationMs} ms`}`);

  const curve: CurvePoint[] = [];
  const groupIds: string[] = [];
  let latency: LatencySummary | undefined;
  for (const concurrency of levels) {
    const n = rolloutsAtLevel(concurrency, samples);
    const group = await db.probeGroup.create({
      data: { versionId: req.versionId, purpose: 'profile', policy: req.policy.name, policyVersion: req.policy.version, simulated: req.policy.simulated, size: n, passThreshold: 1 },
    });
    groupIds.push(group.id);
    progress(`concurrency ${concurrency}: ${n} rollouts`);
    const started = Date.now();
    const rollouts: RolloutSummary[] = await mapConcurrent(
      Array.from({ length: n }, (_, i) => i + 1),
      concurrency,
      (attempt) => runRollout(deps, { versionId: req.versionId, policy: req.policy, seed: seed + attempt, attempt, groupId: group.id, labels: { 'envolve.purpose': 'profile' } }),
    );
    const wallMs = Date.now() - started;
    await finishGroup(db, group.id);
    const durations = rollouts.map((r) => r.durationMs);
    const point: CurvePoint = {
      concurrency,
      rollouts: n,
      wallMs,
      rolloutsPerMin: Math.round(rolloutsPerMinute(n, wallMs) * 100) / 100,
      errors: rollouts.filter((r) => r.status === 'error' || r.status === 'timed-out').length,
      p50Ms: latencySummary(durations).p50Ms,
    };
    curve.push(point);
    if (concurrency === 1) latency = latencySummary(durations);
    progress(`concurrency ${concurrency}: ${point.rolloutsPerMin} rollouts/min, p50 ${point.p50Ms} ms, ${point.errors} error(s)`);
    if (!improved(curve, curve.length - 1)) break;
  }

  const summary = latency!;
  const ceiling = concurrencyCeiling(curve);
  const row = await db.environmentProfile.create({
    data: {
      versionId: req.versionId,
      imageId: build.imageId,
      policy: req.policy.name,
      samples,
      p50Ms: summary.p50Ms,
      p95Ms: summary.p95Ms,
      p99Ms: summary.p99Ms,
      concurrencyCeiling: ceiling,
      curve: JSON.stringify(curve),
    },
  });
  return {
    profileId: row.id,
    versionId: req.versionId,
    imageId: build.imageId,
    policy: req.policy.name,
    samples,
    ...summary,
    concurrencyCeiling: ceiling,
    ceilingIsLowerBound: ceiling === levels[levels.length - 1],
    curve,
    groupIds,
    latencyMeasuredAt: 1,
  };
}
