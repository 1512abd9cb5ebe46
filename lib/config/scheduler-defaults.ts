// The EL scheduler's defaults: a probe is `probeSize` rollouts, and the next generation is
// released when a group of the probe policy of at least `minGroup` rollouts passes at
// `releaseRate` or more (8 rollouts and 6/8 in the method). A lineage may override the rule.
import { z } from 'zod';

export const schedulerConfigSchema = z
  .object({
    probeSize: z.number().int().min(1).max(64),
    releaseRate: z.number().gt(0).max(1),
    minGroup: z.number().int().min(1),
    probeConcurrency: z.number().int().min(1).max(32),
    passThreshold: z.number().min(0).max(1), // a rollout passes when its reward is at least this
    probePolicy: z.string().min(1).max(200), // trainer (reported groups) or an endpoint policy Envolve probes with
    timeoutReward: z.number().finite(), // what a timed-out rollout is worth: the server's, never the trainer's
  })
  .refine((c) => c.minGroup <= c.probeSize, { message: 'minGroup cannot exceed probeSize (no probe could release)', path: ['minGroup'] });

export type SchedulerConfig = z.infer<typeof schedulerConfigSchema>;

export const DEFAULT_SCHEDULER_CONFIG: SchedulerConfig = {
  probeSize: 8,
  releaseRate: 0.75,
  minGroup: 8,
  probeConcurrency: 2,
  passThreshold: 1,
  // Groups the trainer reports through the trainer API: the policy being trained. The oracle and
  // nop cannot gate (lib/gate/gate-policy.ts); the simulated policy gates only the demo lineage.
  probePolicy: 'trainer',
  timeoutReward: 0,
};
