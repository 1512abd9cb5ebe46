// The shapes the drift computations work on. The loader (load.ts) builds DriftInput from the
// database; everything else is pure: input arrays in, chart data out.

import type { Axis } from '../sequence/index.ts';

export { AXES, type Axis } from '../sequence/index.ts';

/** Every per-generation number a chart can draw. */
export const METRICS = [
  'difficultyLength',
  'difficultyScenario',
  'difficultySkill',
  'difficultyTotal',
  'passRate',
  'meanTurns',
  'tokensPerTurn',
  'rejectionRate',
  'planRounds',
  'modifyRounds',
] as const;
export type Metric = (typeof METRICS)[number];

export type MetricValues = Record<Metric, number | null>;

export interface LineageInfo {
  id: string;
  name: string;
  seedVersionId: string;
  seedName: string;
  axisPolicy: string; // the policy's kind and axis, e.g. "fixed:length", "round-robin", "weighted"
  synthesiser: string;
  createdAt: Date;
  frontier: number | null;
  lastReleasedAt: Date | null; // when its newest released generation was released
  passRatePolicy?: string; // the policy whose probes give its pass rates (set by the loader)
  frontierWait?: { reason: string; since: Date }; // its frontier has no group that counts (frontier-waits.ts; set by the loader)
}

/**
 * One lineage position as the charts see it. Generation 0 is the seed itself (no axis, no
 * rounds). Several generations with one number (failed siblings) are merged: the settled one
 * gives the version, probe and time; the rounds and the rejection rate count all of them.
 */
export interface GenerationPoint {
  lineageId: string;
  number: number;
  generationId: string | null; // null for the seed
  axis: Axis | null;
  state: string; // "seed" for generation 0
  at: Date; // when the position was created
  probe: { passes: number; size: number; policyVersion?: string } | null; // the latest complete gating group of its version, and its checkpoint
  values: MetricValues;
  difficultyUnknown?: boolean; // its version's D is unknown (an undescribed step): the D values are null for that reason
}

export interface DriftInput {
  lineages: LineageInfo[];
  points: GenerationPoint[]; // any order
}

export type XAxis = 'generation' | 'time';

/** One x position across lineages: the median with its interquartile and min–max bands. */
export interface BandPoint {
  x: number; // generation number, or epoch ms of the bucket's middle
  n: number; // lineages with a value here
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
}

export interface LineSeries {
  lineageId: string;
  // gapBefore: a position between this point and the previous one has no value (not probed,
  // no tokens reported, …), or a generation number is missing: a chart must not join them.
  points: { x: number; y: number; number: number; generationId: string | null; gapBefore: boolean }[];
}

export interface MetricChart {
  metric: Metric;
  band: BandPoint[];
  lines: LineSeries[];
}
