import type { Db } from '../db/index.ts';
import type { Sequence } from '../sequence/index.ts';
import { checkedEstimate, type PriorEstimator } from './estimator.ts';
import { isOpaqueStep } from './opaque.ts';
import { tableKnows, tablePriors, type Prior, type Priors } from './priors.ts';
import { REFERENCE_TABLE, type ReferenceTable } from './reference-priors.ts';

interface EstimateKey {
  kind: 'scenario' | 'skill';
  name: string;
  given: string; // '' for scenarios
}

const keyOf = (k: EstimateKey) => JSON.stringify([k.kind, k.name, k.given]);

/**
 * The priors for one sequence: the reference table, overlaid with LLM estimates for the names
 * the table does not know. Estimates are cached in PriorEstimate per (kind, name, given): a
 * cached row is used whether or not an estimator is configured (so an offline run keeps the
 * numbers an online run paid for), the estimator is asked at most once per missing name, and
 * names that are neither cached nor estimated fall back to the table's smoothing. A scenario is
 * missing when the table lacks it; a skill (keyed with its scenario) when the table lacks the
 * skill name — a known skill in an unknown scenario uses the table's backoff instead.
 * Estimator failures propagate: a silently smoothed number would misreport the difficulty.
 */
export async function resolvePriors(db: Db, sequence: Sequence, estimator?: PriorEstimator, table: ReferenceTable = REFERENCE_TABLE): Promise<Priors> {
  const missing = new Map<string, EstimateKey>();
  for (const step of sequence.steps) {
    // An opaque step has no price to estimate: its names say where it came from, not what it asks.
    if (isOpaqueStep(step)) continue;
    const wanted: EstimateKey[] = [
      { kind: 'scenario', name: step.scenario, given: '' },
      { kind: 'skill', name: step.skill, given: step.scenario },
    ];
    for (const key of wanted) if (!tableKnows(table, key.kind, key.name)) missing.set(keyOf(key), key);
  }
  const estimates = new Map<string, Prior>();
  if (missing.size > 0) {
    const rows = await db.priorEstimate.findMany({ where: { OR: [...missing.values()] } });
    for (const row of rows) estimates.set(keyOf(row as EstimateKey), { p: row.probability, source: 'estimated', model: row.model });
  }
  if (estimator) {
    // One at a time: a handful of names per generation, and no burst against the LLM's rate limit.
    for (const [id, key] of missing) {
      if (estimates.has(id)) continue;
      const raw = await estimator.estimate(key.kind, key.name, key.kind === 'skill' ? key.given : undefined);
      const probability = checkedEstimate(raw, key.kind, key.name, estimator.model);
      // A concurrent worker may have stored the same name meanwhile; the first row stays.
      await db.priorEstimate.upsert({
        where: { kind_name_given: key },
        create: { ...key, probability, model: estimator.model },
        update: {},
      });
      estimates.set(id, { p: probability, source: 'estimated', model: estimator.model });
    }
  }
  const base = tablePriors(table);
  return {
    version: base.version,
    scenario: (name) => estimates.get(keyOf({ kind: 'scenario', name, given: '' })) ?? base.scenario(name),
    skill: (name, given) => estimates.get(keyOf({ kind: 'skill', name, given })) ?? base.skill(name, given),
    turns: base.turns,
  };
}
