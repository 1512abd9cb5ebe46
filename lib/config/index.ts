// Settings read from the environment, the scheduler's defaults and the trusted proxies.
// The public API of lib/config: other modules import it from here, never from its files (README, Layers).
export { settings, type Settings, SANDBOX_RUNTIMES, type LogLevel, BUILD_MIRROR_FIELDS, BUILD_NETWORKS, SettingsError } from './settings.ts';
export { type ResourceCeilings, type ResourceName, CEILING_SETTINGS, SMALLEST_CPUS, SMALLEST_MEMORY_MB } from './settings.ts';
export { type SchedulerConfig, DEFAULT_SCHEDULER_CONFIG, schedulerConfigSchema } from './scheduler-defaults.ts';
export { type TrustedProxies, parseTrustedProxies } from './trusted-proxies.ts';
