// What the loops run with. The synthesiser plays proposer, plan reviewer, modifier and judge.
import type { Db } from '../db/index.ts';
import type { PriorEstimator } from '../difficulty/index.ts';
import type { Sandbox } from '../sandbox/index.ts';
import type { Synthesiser } from '../synth/index.ts';

export interface EvolutionContext {
  db: Db;
  sandbox: Sandbox;
  synthesiser: Synthesiser;
  priorEstimator?: PriorEstimator; // estimates reference priors for names the shipped table lacks
  progress: (message: string) => void;
  labels?: Record<string, string>; // added to every sandbox container (job, worker)
  rubricCheckTimeoutSec?: number; // each executable rubric check's first budget (default: the sandbox's)
  // Multiplies the validators' time budgets (agent, verifier, rubric checks): a needs-attention
  // generation's "retry with a larger budget" exit (attention.ts). Default 1.
  budgetFactor?: number;
}
