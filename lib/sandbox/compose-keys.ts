// The compose keys a sidecar's container is made from, read into the Docker engine's terms:
// durations, healthchecks, depends_on conditions, commands, environment, tmpfs mounts and
// read-only volumes of the task's own files.
import path from 'node:path';

export type DependsCondition = 'service_started' | 'service_healthy' | 'service_completed_successfully';
const CONDITIONS: DependsCondition[] = ['service_started', 'service_healthy', 'service_completed_successfully'];

// Docker's healthcheck, durations in nanoseconds as the engine takes them.
export interface Healthcheck {
  Test: string[];
  Interval: number;
  Timeout: number;
  Retries: number;
  StartPeriod: number;
}

// Docker's defaults for what a compose healthcheck leaves out.
const DEFAULT_INTERVAL_NS = 30e9;
const DEFAULT_TIMEOUT_NS = 30e9;
const DEFAULT_RETRIES = 3;

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** A compose duration ("1m30s", "500ms", "10s") in nanoseconds; throws on anything else. */
export function parseDuration(value: unknown): number {
  const text = String(value).trim();
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ns|us|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) throw new Error(`'${text}' is not a duration (e.g. 10s, 1m30s, 500ms)`);
  return parts.reduce((sum, p) => sum + Number(p[1]) * UNIT_NS[p[2]!]!, 0);
}

export function asCommand(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map(String);
  return ['sh', '-c', String(value)];
}

export function asEnvironment(value: unknown): Record<string, string> {
  if (Array.isArray(value)) return Object.fromEntries(value.map((e) => String(e).split(/=(.*)/s).slice(0, 2) as [string, string]));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v ?? '')]));
  return {};
}

export function asList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

/** depends_on in either form (a list of names, or names with a condition). */
export function parseDependsOn(value: unknown): Record<string, DependsCondition> {
  if (value === undefined || value === null) return {};
  if (Array.isArray(value)) return Object.fromEntries(value.map((name) => [String(name), 'service_started' as const]));
  const deps: Record<string, DependsCondition> = {};
  for (const [name, spec] of Object.entries(value as Record<string, unknown>)) {
    const condition = ((spec as { condition?: unknown } | null)?.condition ?? 'service_started') as DependsCondition;
    if (!CONDITIONS.includes(condition)) throw new Error(`depends_on '${name}' has condition '${String(condition)}' (one of ${CONDITIONS.join(', ')})`);
    deps[name] = condition;
  }
  return deps;
}

/** A compose healthcheck as Docker's; undefined when there is none or it is disabled. */
export function parseHealthcheck(value: unknown): Healthcheck | undefined {
  if (value === undefined || value === null) return undefined;
  const hc = value as Record<string, unknown>;
  if (hc.disable === true) return undefined;
  const test = hc.test;
  const Test = Array.isArray(test) ? test.map(String) : typeof test === 'string' ? ['CMD-SHELL', test] : undefined;
  if (!Test || Test[0] === 'NONE') return undefined;
  if (!['CMD', 'CMD-SHELL'].includes(Test[0]!)) throw new Error(`healthcheck test must start with CMD, CMD-SHELL or NONE, not '${Test[0]}'`);
  return {
    Test,
    Interval: hc.interval === undefined ? DEFAULT_INTERVAL_NS : parseDuration(hc.interval),
    Timeout: hc.timeout === undefined ? DEFAULT_TIMEOUT_NS : parseDuration(hc.timeout),
    Retries: hc.retries === undefined ? DEFAULT_RETRIES : Number(hc.retries),
    StartPeriod: hc.start_period === undefined ? 0 : parseDuration(hc.start_period),
  };
}

/** How long Docker itself may take to call a container healthy or unhealthy, in ms. */
export function healthVerdictWithinMs(hc: Healthcheck): number {
  return (hc.StartPeriod + (hc.Interval + hc.Timeout) * (hc.Retries + 1)) / 1e6;
}

// A read-only volume of the task's own files: `source` is a path in the task bundle (a file, or a
// directory whose files all go), `target` where they appear in the sidecar.
export interface TaskFileVolume {
  source: string;
  target: string;
}

const COMPOSE_DIR = 'environment'; // compose resolves relative sources against the compose file's directory

/** One `volumes` entry (short or long syntax); throws with the reason for anything but a read-only task-file bind. */
export function parseVolume(value: unknown): TaskFileVolume {
  const { source, target, readOnly, type } = volumeFields(value);
  const shown = typeof value === 'string' ? `'${value}'` : `'${source}' → '${target}'`;
  if (type !== 'bind') {
    const what = type === 'anonymous' ? 'an anonymous volume' : `of type ${type}`;
    throw new Error(`volume ${shown} is ${what}; sidecars may only mount the task's own files, read-only`);
  }
  if (!source.startsWith('.')) {
    const what = path.posix.isAbsolute(source) ? 'a host path' : 'a named volume';
    throw new Error(`volume ${shown} mounts ${what}; sidecars may only mount the task's own files (a path relative to environment/), read-only`);
  }
  const inBundle = path.posix.normalize(path.posix.join(COMPOSE_DIR, source)).replace(/\/$/, '');
  if (inBundle !== COMPOSE_DIR && !inBundle.startsWith(`${COMPOSE_DIR}/`)) throw new Error(`volume ${shown} reaches outside the task's environment/ directory`);
  if (!readOnly) throw new Error(`volume ${shown} is writable; mount the task's files read-only (':ro', or read_only: true)`);
  if (!path.posix.isAbsolute(target)) throw new Error(`volume ${shown} has a container path that is not absolute`);
  return { source: inBundle, target: path.posix.normalize(target).replace(/(.)\/$/, '$1') };
}

export function parseVolumes(value: unknown): TaskFileVolume[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Error('volumes must be a list');
  return value.map(parseVolume);
}

function volumeFields(value: unknown): { source: string; target: string; readOnly: boolean; type: string } {
  if (typeof value === 'string') {
    const [source = '', target, mode = 'rw'] = value.split(':');
    // `- /data` alone is an anonymous volume.
    if (target === undefined) return { source: '', target: source, readOnly: false, type: 'anonymous' };
    return { source, target, readOnly: mode.split(',').includes('ro'), type: 'bind' };
  }
  const v = (value ?? {}) as Record<string, unknown>;
  return { source: String(v.source ?? ''), target: String(v.target ?? ''), readOnly: v.read_only === true, type: String(v.type ?? 'volume') };
}
