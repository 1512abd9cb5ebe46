// The EL scheduler's numbers: a probe is `probeSize` rollouts, and the next generation is
// released when the frontier reaches `releaseAt` passes of them (8 and 6 in the method).
import { z } from 'zod';

export const schedulerConfigSchema = z
  .object({
    probeSize: z.number().int().min(1).max(64),
    releaseAt: z.number().int().min(1),
    probeConcurrency: z.number().int().min(1).max(32),
    passThreshold: z.number().min(0).max(1), // a rollout passes when its reward is at least this
    probePolicy: z.string().min(1), // a policy name for createPolicy
  })
  .refine((c) => c.releaseAt <= c.probeSize, { message: 'releaseAt cannot exceed probeSize', path: ['releaseAt'] });

export type SchedulerConfig = z.infer<typeof schedulerConfigSchema>;

export const DEFAULT_SCHEDULER_CONFIG: SchedulerConfig = {
  probeSize: 8,
  releaseAt: 6,
  probeConcurrency: 2,
  passThreshold: 1,
  probePolicy: 'simulated',
};

const intFrom = (value: string | undefined) => (value === undefined || value === '' ? undefined : Number(value));

// ENVOLVE_PROBE_SIZE, ENVOLVE_RELEASE_AT, ENVOLVE_PROBE_CONCURRENCY, ENVOLVE_PASS_THRESHOLD, ENVOLVE_PROBE_POLICY.
export function schedulerConfigFrom(env: Record<string, string | undefined> = process.env, overrides: Partial<SchedulerConfig> = {}): SchedulerConfig {
  const fromEnv = {
    probeSize: intFrom(env.ENVOLVE_PROBE_SIZE),
    releaseAt: intFrom(env.ENVOLVE_RELEASE_AT),
    probeConcurrency: intFrom(env.ENVOLVE_PROBE_CONCURRENCY),
    passThreshold: intFrom(env.ENVOLVE_PASS_THRESHOLD),
    probePolicy: env.ENVOLVE_PROBE_POLICY || undefined,
  };
  const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  const parsed = schedulerConfigSchema.safeParse({ ...DEFAULT_SCHEDULER_CONFIG, ...defined(fromEnv), ...defined(overrides) });
  if (!parsed.success) {
    throw new Error(`invalid scheduler settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}
