// `envolve profile`: an environment's latency at the concurrency training will use, and how far
// it scales. First K rollouts run N at a time (N: the trainer's concurrency, where fixtures
// contend as they will in training); their wall times give p50/p95/p99, each only when K is large
// enough to tell it from the maximum. Then 1, 2, 4, 8… at once until throughput stops rising by
// more than 10% or errors start; the last level that still improved is the concurrency ceiling.
// Each run's rollouts form a ProbeGroup of purpose 'profile'; the result is stored as an
// EnvironmentProfile row with the image id, N, K and the whole curve.
import type { Db } from '../db/index.ts';
import { loadBundle } from '../env/index.ts';
import { bundleFile, parseTaskConfig } from '../bundle/index.ts';
import type { Sandbox } from '../sandbox/index.ts';
import { finishGroup } from '../gate/index.ts';
import pLimit from 'p-limit';
import { concurrencyCeiling, concurrencyLevels, improved, latencySummary, rolloutsPerMinute, type CurvePoint, type LatencySummary } from './profile-math.ts';
import { runRollout, type RolloutSummary } from './run.ts';
import type { Policy } from './types.ts';

export interface ProfileRequest {
  versionId: string;
  policy: Policy;
  samples?: number; // K: rollouts in the latency sample; default 100 (enough for a p99)
  concurrency?: number; // N: rollouts at once in the latency sample; default 1
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
  concurrency: number; // N of the latency sample
  concurrencyCeiling: number;
  // The highest level tried still improved: the real ceiling is at least this, maybe higher.
  ceilingIsLowerBound: boolean;
  curve: CurvePoint[];
  groupIds: string[];
  // The median of each trial step over the latency sample, in ms: where a rollout's time goes.
  phaseP50Ms: Record<string, number>;
}

export const DEFAULT_PROFILE_SAMPLES = 100;
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

  const trainingConcurrency = req.concurrency ?? 1;
  if (!Number.isInteger(trainingConcurrency) || trainingConcurrency < 1) throw new Error(`concurrency must be a positive integer, got ${trainingConcurrency}`);
  const groupIds: string[] = [];
  const runLevel = async (concurrency: number, n: number): Promise<{ rollouts: RolloutSummary[]; wallMs: number }> => {
    const group = await db.probeGroup.create({
      data: {
        versionId: req.versionId,
        purpose: 'profile',
        policy: req.policy.name,
        policyVersion: req.policy.version,
        simulated: req.policy.simulated,
        size: n,
        passThreshold: 1,
      },
    });
    groupIds.push(group.id);
    progress(`concurrency ${concurrency}: ${n} rollouts`);
    const started = Date.now();
    const rollouts: RolloutSummary[] = await pLimit(concurrency).map(
      Array.from({ length: n }, (_, i) => i + 1),
      (attempt) =>
        runRollout(deps, {
          versionId: req.versionId,
          policy: req.policy,
          seed: seed + attempt,
          attempt,
          groupId: group.id,
          labels: { 'envolve.purpose': 'profile' },
        }),
    );
    const wallMs = Date.now() - started;
    await finishGroup(db, group.id);
    return { rollouts, wallMs };
  };

  const sample = await runLevel(trainingConcurrency, samples);
  const latency: LatencySummary = latencySummary(sample.rollouts.map((r) => r.durationMs));
  progress(
    `latency at concurrency ${trainingConcurrency} over ${samples} rollouts: p50 ${latency.p50Ms ?? '–'} ms, p95 ${latency.p95Ms ?? '–'} ms, p99 ${latency.p99Ms ?? '–'} ms`,
  );

  const curve: CurvePoint[] = [];
  for (const concurrency of levels) {
    // The climb measures throughput, not tails: about ten rollouts per level, in whole rounds.
    const { rollouts, wallMs } = await runLevel(concurrency, rolloutsAtLevel(concurrency, Math.min(samples, 10)));
    const n = rollouts.length;
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
    progress(`concurrency ${concurrency}: ${point.rolloutsPerMin} rollouts/min, p50 ${point.p50Ms} ms, ${point.errors} error(s)`);
    if (!improved(curve, curve.length - 1)) break;
  }

  const summary = latency;
  const phaseP50Ms = phaseMedians(sample.rollouts);
  const ceiling = concurrencyCeiling(curve);
  const row = await db.environmentProfile.create({
    data: {
      versionId: req.versionId,
      imageId: build.imageId,
      policy: req.policy.name,
      samples,
      concurrency: trainingConcurrency,
      p50Ms: summary.p50Ms,
      p95Ms: summary.p95Ms,
      p99Ms: summary.p99Ms,
      concurrencyCeiling: ceiling,
      curve: JSON.stringify(curve),
      phaseP50Ms: JSON.stringify(phaseP50Ms),
    },
  });
  return {
    profileId: row.id,
    versionId: req.versionId,
    imageId: build.imageId,
    policy: req.policy.name,
    samples,
    concurrency: trainingConcurrency,
    ...summary,
    concurrencyCeiling: ceiling,
    ceilingIsLowerBound: ceiling === levels[levels.length - 1],
    curve,
    groupIds,
    phaseP50Ms,
  };
}

// Per step, the median over the rollouts that reached it (a timed-out one has no verifier step).
export function phaseMedians(rollouts: Pick<RolloutSummary, 'phaseMs'>[]): Record<string, number> {
  const byStep = new Map<string, number[]>();
  for (const r of rollouts) for (const [step, ms] of Object.entries(r.phaseMs ?? {})) byStep.set(step, [...(byStep.get(step) ?? []), ms]);
  return Object.fromEntries(
    [...byStep].map(([step, values]) => {
      const sorted = values.sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
      return [step, Math.round(median)];
    }),
  );
}
