// An LLM's estimate of a prior for a name the reference table does not know (the Anthropic
// synthesiser implements it with Claude). Contract: a probability in [0, 1] — p(σ) for a
// scenario, p(κ | σ = given) for a skill — on the same world-knowledge footing as the table.
export interface PriorEstimator {
  readonly model: string;
  estimate(kind: 'scenario' | 'skill', name: string, given?: string): Promise<number>;
}

// A zero estimate would make −ln p infinite; this floor keeps the unknown costly but finite.
export const MIN_ESTIMATE = 1e-6;

export function checkedEstimate(value: number, kind: string, name: string, model: string): number {
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw new RangeError(`prior estimator ${model} answered ${value} for ${kind} "${name}"; a probability in [0, 1] was expected`);
  }
  return Math.max(value, MIN_ESTIMATE);
}
