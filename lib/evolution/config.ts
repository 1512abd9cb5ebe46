// A lineage's settings: how it chooses axes, how much it may change per generation, which
// synthesiser it uses, and the bounds of its two loops.
import { z } from 'zod';
import { SANDBOX_RUNTIMES } from '../config/index.ts';
import { baseImageMappingSchema, buildMirrorsSchema } from '../sandbox/index.ts';
import { AXES, EFFORTS, type Axis, type AxisPolicy } from '../sequence/index.ts';

// Small against one step's worth of difficulty (several turns, a few nats), large enough that a
// swap between two nearly equally rare names does not count as progress.
export const DEFAULT_DIFFICULTY_MARGIN = 0.05;

const axis = z.enum(AXES as [Axis, ...Axis[]]);

export const axisPolicySchema: z.ZodType<AxisPolicy> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fixed'), axis }),
  z.object({ kind: z.literal('round-robin') }),
  z.object({ kind: z.literal('weighted'), weights: z.object({ length: z.number().min(0), scenario: z.number().min(0), skill: z.number().min(0) }) }),
]);

export const SYNTHESISERS = ['procedural', 'anthropic'] as const;
export type SynthesiserName = (typeof SYNTHESISERS)[number];

export const loopConfigSchema = z.object({
  maxPlanRounds: z.number().int().min(1).max(20).default(3),
  maxModifyRounds: z.number().int().min(1).max(20).default(3),
  // How much D (in nats and turns) a generation must add over its parent; see difficulty-gate.ts.
  difficultyMargin: z.number().min(0).max(100).default(DEFAULT_DIFFICULTY_MARGIN),
});
export type LoopConfig = z.infer<typeof loopConfigSchema>;

export const lineageSettingsSchema = z.object({
  axisPolicy: axisPolicySchema,
  effort: z.enum(EFFORTS as ['low', 'high', 'max']),
  synthesiser: z.enum(SYNTHESISERS),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1),
  loops: loopConfigSchema.default({ maxPlanRounds: 3, maxModifyRounds: 3, difficultyMargin: DEFAULT_DIFFICULTY_MARGIN }),
  // Which local image stands in for a FROM this machine lacks, for every build of the lineage.
  baseImages: baseImageMappingSchema.optional(),
  // The OCI runtime every sandbox use on the lineage's behalf runs under; absent: the deployment's
  // ENVOLVE_SANDBOX_RUNTIME. An environment's task.toml may still raise it to runsc.
  sandboxRuntime: z.enum(SANDBOX_RUNTIMES).optional(),
  // The package mirrors every build on the lineage's behalf goes through; absent: the deployment's
  // ENVOLVE_BUILD_* settings.
  buildMirrors: buildMirrorsSchema.optional(),
});
export type LineageSettings = z.infer<typeof lineageSettingsSchema>;
export type LineageSettingsInput = z.input<typeof lineageSettingsSchema>;

// `--axis length|scenario|skill|round-robin` on the command line.
export function axisPolicyFromFlag(flag: string): AxisPolicy {
  if (flag === 'round-robin') return { kind: 'round-robin' };
  const parsed = axis.safeParse(flag);
  if (!parsed.success) throw new Error(`--axis must be one of ${[...AXES, 'round-robin'].join(', ')}, not '${flag}'`);
  return { kind: 'fixed', axis: parsed.data };
}

export function describeAxisPolicy(policy: AxisPolicy): string {
  if (policy.kind === 'fixed') return policy.axis;
  if (policy.kind === 'round-robin') return 'round-robin';
  return `weighted(${AXES.map((a) => `${a}=${policy.weights[a]}`).join(',')})`;
}
