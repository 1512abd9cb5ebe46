import { AXES, type Axis, type AxisPolicy } from './types.ts';

// The axis a generation evolves along. Generation numbers are 1-based (generation 1 is the
// first child of the seed), so round-robin goes length → scenario → skill → length …
export function chooseAxis(policy: AxisPolicy, generationNumber: number, seed: number): Axis {
  if (!Number.isInteger(generationNumber) || generationNumber < 1) {
    throw new RangeError(`chooseAxis: generation number must be an integer ≥ 1, got ${generationNumber}`);
  }
  switch (policy.kind) {
    case 'fixed':
      return policy.axis;
    case 'round-robin':
      return AXES[(generationNumber - 1) % AXES.length]!;
    case 'weighted':
      return weightedAxis(policy.weights, unitFloat(seed, generationNumber));
  }
}

function weightedAxis(weights: Record<Axis, number>, u: number): Axis {
  for (const axis of AXES) {
    const w = weights[axis];
    if (!Number.isFinite(w) || w < 0) throw new RangeError(`chooseAxis: weight of ${axis} must be a finite number ≥ 0, got ${w}`);
  }
  const total = AXES.reduce((sum, axis) => sum + weights[axis], 0);
  if (total <= 0) throw new RangeError('chooseAxis: at least one axis weight must be positive');
  let threshold = u * total;
  for (const axis of AXES) {
    if (weights[axis] > 0 && threshold < weights[axis]) return axis;
    threshold -= weights[axis];
  }
  // Floating-point rounding can leave u·total a hair above the last cumulative weight.
  return [...AXES].reverse().find((axis) => weights[axis] > 0)!;
}

// A uniform number in [0, 1) from (seed, generation): a murmur3-style integer mix, so the
// choice is reproducible from the lineage seed without carrying generator state between runs.
function unitFloat(seed: number, generationNumber: number): number {
  let h = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(generationNumber, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}
