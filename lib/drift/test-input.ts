// Hand-built drift inputs for the unit tests: a lineage is a list of positions with only the
// values a test cares about; everything else is null.
import { METRICS, type Axis, type DriftInput, type GenerationPoint, type LineageInfo, type MetricValues } from './types.ts';
import { GenerationState } from '../states/index.ts';

export interface PositionSpec {
  axis?: Axis | null;
  state?: string;
  at?: Date;
  probe?: [passes: number, size: number, policyVersion?: string];
  values?: Partial<MetricValues>;
}

export function lineageInfo(id: string, fields: Partial<LineageInfo> = {}): LineageInfo {
  return {
    id,
    name: fields.name ?? id,
    seedVersionId: fields.seedVersionId ?? 'a'.repeat(64),
    seedName: fields.seedName ?? 'seed',
    axisPolicy: fields.axisPolicy ?? 'round-robin',
    synthesiser: fields.synthesiser ?? 'procedural',
    createdAt: fields.createdAt ?? new Date('2026-01-01T00:00:00Z'),
    frontier: fields.frontier ?? null,
    lastReleasedAt: fields.lastReleasedAt ?? null,
    ...(fields.passRatePolicy === undefined ? {} : { passRatePolicy: fields.passRatePolicy }),
    ...(fields.frontierWait === undefined ? {} : { frontierWait: fields.frontierWait }),
  };
}

const EMPTY: MetricValues = Object.fromEntries(METRICS.map((m) => [m, null])) as MetricValues;

/** Position i of `positions` is generation i (0 = the seed). */
export function lineagePoints(lineageId: string, positions: PositionSpec[]): GenerationPoint[] {
  return positions.map((spec, number) => {
    const probe = spec.probe ? { passes: spec.probe[0], size: spec.probe[1], ...(spec.probe[2] === undefined ? {} : { policyVersion: spec.probe[2] }) } : null;
    return {
      lineageId,
      number,
      generationId: number === 0 ? null : `${lineageId}-g${number}`,
      axis: number === 0 ? null : (spec.axis ?? 'length'),
      state: spec.state ?? (number === 0 ? 'seed' : GenerationState.released),
      at: spec.at ?? new Date(Date.UTC(2026, 0, 1 + number)),
      probe,
      values: { ...EMPTY, passRate: probe ? probe.passes / probe.size : null, ...spec.values },
    };
  });
}

export function driftInput(lineages: { info: LineageInfo; positions: PositionSpec[] }[]): DriftInput {
  return {
    lineages: lineages.map((l) => l.info),
    points: lineages.flatMap((l) => lineagePoints(l.info.id, l.positions)),
  };
}
