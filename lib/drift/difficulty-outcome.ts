// Does off-policy difficulty predict on-policy outcome? Per lineage and pooled over
// the filtered lineages: the Pearson correlation between a position's estimated D and its
// probe's measured pass rate, and between D and mean turns per trajectory, over the positions
// that have both. Null when fewer than three points, or when either side does not vary (an
// oracle that always passes has no correlation with anything). Every row is of one policy: pooled
// rows pool the lineages of one policy, never a mix, and a simulated policy's row is marked: its
// figures test the pipeline, not the method.
import { pointsByLineage } from './series.ts';
import type { DriftInput, GenerationPoint } from './types.ts';
import { SIMULATED_POLICY } from '../gate/index.ts';

export interface Correlation {
  r: number | null;
  n: number;
}

export interface DifficultyOutcomeRow {
  lineageId: string | null; // null: every filtered lineage of `policy` pooled
  name: string;
  policy: string; // whose pass rates and turns these are
  simulated: boolean; // the simulated policy: a test of the pipeline, not evidence for the method
  passRate: Correlation;
  meanTurns: Correlation;
  points: { d: number; passRate: number | null; meanTurns: number | null }[];
}

const MIN_POINTS = 3;

export function pearson(pairs: readonly (readonly [number, number])[]): Correlation {
  const n = pairs.length;
  if (n < MIN_POINTS) return { r: null, n };
  const mx = pairs.reduce((s, [x]) => s + x, 0) / n;
  const my = pairs.reduce((s, [, y]) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of pairs) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return { r: null, n };
  return { r: sxy / Math.sqrt(sxx * syy), n };
}

function row(lineageId: string | null, name: string, policy: string, points: GenerationPoint[]): DifficultyOutcomeRow {
  const withD = points.filter((p) => p.values.difficultyTotal !== null);
  const pairsOf = (metric: 'passRate' | 'meanTurns') =>
    withD.flatMap((p) => (p.values[metric] === null ? [] : [[p.values.difficultyTotal!, p.values[metric]!] as const]));
  return {
    lineageId,
    name,
    policy,
    simulated: policy === SIMULATED_POLICY,
    passRate: pearson(pairsOf('passRate')),
    meanTurns: pearson(pairsOf('meanTurns')),
    points: withD.map((p) => ({ d: p.values.difficultyTotal!, passRate: p.values.passRate, meanTurns: p.values.meanTurns })),
  };
}

export function difficultyOutcome(input: DriftInput, byLineage = pointsByLineage(input)): DifficultyOutcomeRow[] {
  const policyOf = (l: DriftInput['lineages'][number]) => l.passRatePolicy ?? 'unknown policy';
  const rows = input.lineages.map((l) => row(l.id, l.name, policyOf(l), byLineage.get(l.id) ?? []));
  if (input.lineages.length < 2) return rows;
  const policies = [...new Set(input.lineages.map(policyOf))].sort();
  const pooled = policies.map((policy) => {
    const lineages = input.lineages.filter((l) => policyOf(l) === policy);
    // A pooled row says which axis policies it mixes: D rises differently along each.
    const axes = [...new Set(lineages.map((l) => l.axisPolicy))].sort();
    return row(
      null,
      `all ${policy} lineages (${lineages.length}; ${axes.length > 1 ? `pooled over axes: ${axes.join(', ')}` : `axis policy ${axes[0]}`})`,
      policy,
      lineages.flatMap((l) => byLineage.get(l.id) ?? []),
    );
  });
  return [...pooled, ...rows];
}
