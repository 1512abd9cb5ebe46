// What a chart over several lineages pools, said on the chart: lineages evolved along different
// axes (a length lineage's D climbs by turns, a skill lineage's by rarity) are not one population,
// so a pooled band names the axis policies it mixes; and positions whose D is unknown (an
// undescribed imported task, lib/difficulty/opaque.ts) are left out of the D series and the D–outcome
// correlations, and the page says how many.
import type { DriftInput } from './types.ts';

export interface AxisPooling {
  policies: string[]; // the distinct axis policies of the charted lineages, sorted
  pooled: boolean; // more than one: the bands pool lineages of different axes
  label: string; // "axis policy: length" or "pooled over axes: length, scenario (5 lineages)"
}

export function axisPooling(input: DriftInput): AxisPooling {
  const policies = [...new Set(input.lineages.map((l) => l.axisPolicy))].sort();
  const pooled = policies.length > 1;
  const label =
    policies.length === 0
      ? 'no lineages'
      : pooled
        ? `pooled over axes: ${policies.join(', ')} (${input.lineages.length} lineages; filter by axis policy to chart one)`
        : `axis policy: ${policies[0]}`;
  return { policies, pooled, label };
}

export interface UnknownDifficulty {
  positions: number; // positions whose version's D is unknown
  note: string | null; // what the page says, null when there are none
}

export function unknownDifficulty(input: DriftInput): UnknownDifficulty {
  const positions = input.points.filter((p) => p.difficultyUnknown).length;
  return {
    positions,
    note:
      positions === 0
        ? null
        : `${positions} position${positions === 1 ? ' has' : 's have'} D unknown — undescribed (an imported task nobody described or extracted): left out of the D series and the D–outcome correlations, never counted as 0`,
  };
}
