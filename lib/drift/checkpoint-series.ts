// Pass rate over generations, one series per (policy, checkpoint): every probed position of the
// filtered lineages, grouped by the policy whose probes give its lineage's pass rates and the
// checkpoint (policy version) that ran the probe, pooled per generation number (passes over
// rollouts). The overlay chart draws them on one axis; each series says its policy, version and
// how many lineages and rollouts it rests on.
import type { DriftInput } from './types.ts';
import { SIMULATED_POLICY } from '../gate/browser.ts';

export const UNKNOWN_POLICY = '(no policy)';

export interface CheckpointSeriesPoint {
  generation: number;
  passes: number;
  rollouts: number;
  passRate: number; // passes / rollouts
  lineages: number; // lineages probed at this generation by this checkpoint
}

export interface CheckpointSeries {
  policy: string;
  policyVersion: string; // '' when the probes did not say
  simulated: boolean; // a test of the pipeline, not of the method
  lineages: number; // distinct lineages with a point in the series
  rollouts: number; // over every point
  points: CheckpointSeriesPoint[]; // in generation order
}

export function checkpointSeries(input: DriftInput): CheckpointSeries[] {
  const policyOf = new Map(input.lineages.map((l) => [l.id, l.passRatePolicy ?? UNKNOWN_POLICY]));
  const bySeries = new Map<
    string,
    { policy: string; policyVersion: string; lineages: Set<string>; byGeneration: Map<number, { passes: number; rollouts: number; lineages: Set<string> }> }
  >();
  for (const p of input.points) {
    const policy = policyOf.get(p.lineageId);
    if (!p.probe || p.probe.size <= 0 || policy === undefined) continue;
    const policyVersion = p.probe.policyVersion ?? '';
    const key = `${policy}\u0000${policyVersion}`;
    const series = bySeries.get(key) ?? { policy, policyVersion, lineages: new Set(), byGeneration: new Map() };
    const at = series.byGeneration.get(p.number) ?? { passes: 0, rollouts: 0, lineages: new Set() };
    at.passes += p.probe.passes;
    at.rollouts += p.probe.size;
    at.lineages.add(p.lineageId);
    series.lineages.add(p.lineageId);
    series.byGeneration.set(p.number, at);
    bySeries.set(key, series);
  }
  return [...bySeries.values()]
    .map((s): CheckpointSeries => {
      const points = [...s.byGeneration.entries()]
        .sort(([a], [b]) => a - b)
        .map(([generation, at]) => ({ generation, passes: at.passes, rollouts: at.rollouts, passRate: at.passes / at.rollouts, lineages: at.lineages.size }));
      return {
        policy: s.policy,
        policyVersion: s.policyVersion,
        simulated: s.policy === SIMULATED_POLICY,
        lineages: s.lineages.size,
        rollouts: points.reduce((sum, p) => sum + p.rollouts, 0),
        points,
      };
    })
    .sort((a, b) => a.policy.localeCompare(b.policy) || a.policyVersion.localeCompare(b.policyVersion));
}

/** The legend's name for a series: its policy, version and sample size. */
export function checkpointSeriesLabel(series: CheckpointSeries): string {
  const version = series.policyVersion || '(no version)';
  const lineages = `${series.lineages} lineage${series.lineages === 1 ? '' : 's'}`;
  return `${series.policy} @ ${version} (${lineages}, n=${series.rollouts} rollouts)${series.simulated ? ' — simulated: tests the pipeline, not the method' : ''}`;
}
