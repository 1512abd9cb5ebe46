// The EL scheduler's rule as one process applies it: the defaults and their schema live with the
// other settings (lib/config/scheduler-defaults.ts); a process's variables and a command's flags
// are laid over them here.
import { gatePolicyRefusal } from '../gate/index.ts';
import { DEFAULT_SCHEDULER_CONFIG, schedulerConfigSchema, type SchedulerConfig } from '../config/index.ts';

export { DEFAULT_SCHEDULER_CONFIG, schedulerConfigSchema, type SchedulerConfig };

// `fromSettings`: the ENVOLVE_PROBE_* variables a process was started with (settings().scheduler);
// `overrides`: a command's flags. Both may leave fields out; the defaults fill them.
export function schedulerConfigFrom(fromSettings: Partial<SchedulerConfig>, overrides: Partial<SchedulerConfig> = {}): SchedulerConfig {
  const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  const parsed = schedulerConfigSchema.safeParse({ ...DEFAULT_SCHEDULER_CONFIG, ...defined(fromSettings), ...defined(overrides) });
  if (!parsed.success) {
    throw new Error(`invalid scheduler settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  // The default gate of every lineage that names none: a demo lineage names its own.
  const refusal = gatePolicyRefusal(parsed.data.probePolicy, false);
  if (refusal) throw new Error(`invalid scheduler settings: probePolicy: ${refusal}`);
  return parsed.data;
}
