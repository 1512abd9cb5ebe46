// task.toml parsed into a typed view. Only the keys Envolve acts on are typed;
// every other key (real collections use version = "2.0" files with extras such
// as subcategories or time estimates) is kept as parsed, and the raw text is
// kept too, because the stored file is the source of truth, not this view.

import { parse, TomlError } from 'smol-toml';
import { z } from 'zod';
import { CEILING_SETTINGS, SANDBOX_RUNTIMES, settings, SMALLEST_CPUS, SMALLEST_MEMORY_MB, type ResourceCeilings, type ResourceName } from '../config/index.ts';

// A task.toml resource: where it is, the ceiling that bounds it, and what any container can take.
// Docker holds bytes and nanoseconds as 64-bit integers and Envolve computes them as JavaScript
// numbers, exact up to Number.MAX_SAFE_INTEGER: a value whose bytes (or ms, or nano-CPUs) pass
// that is refused at import rather than turned into a limit no engine would honour.
interface TaskResource {
  table: 'environment' | 'agent' | 'verifier';
  key: string;
  name: ResourceName;
  unit: string;
  min: number;
  max: number;
  whole: boolean;
  harborDefault: number; // Harbor's, so a task means the same thing here and there
}

const MIB = 1024 * 1024;
const largestMb = Math.floor(Number.MAX_SAFE_INTEGER / MIB);
const largestSec = Math.floor(Number.MAX_SAFE_INTEGER / 1000);

const TASK_RESOURCES: readonly TaskResource[] = [
  {
    table: 'environment',
    key: 'cpus',
    name: 'cpus',
    unit: 'CPUs',
    min: SMALLEST_CPUS,
    max: Math.floor(Number.MAX_SAFE_INTEGER / 1e9),
    whole: false,
    harborDefault: 1,
  },
  { table: 'environment', key: 'memory_mb', name: 'memoryMb', unit: 'MB', min: SMALLEST_MEMORY_MB, max: largestMb, whole: true, harborDefault: 2048 },
  { table: 'environment', key: 'storage_mb', name: 'storageMb', unit: 'MB', min: 1, max: largestMb, whole: true, harborDefault: 10240 },
  { table: 'environment', key: 'build_timeout_sec', name: 'buildTimeoutSec', unit: 's', min: 0.001, max: largestSec, whole: false, harborDefault: 600 },
  { table: 'agent', key: 'timeout_sec', name: 'agentTimeoutSec', unit: 's', min: 0.001, max: largestSec, whole: false, harborDefault: 600 },
  { table: 'verifier', key: 'timeout_sec', name: 'verifierTimeoutSec', unit: 's', min: 0.001, max: largestSec, whole: false, harborDefault: 600 },
];

const resourceOf = (table: TaskResource['table'], key: string) => TASK_RESOURCES.find((r) => r.table === table && r.key === key)!;

function ceilingText(r: TaskResource, ceilings: ResourceCeilings): string {
  return `this deployment gives a trial at most ${ceilings[r.name]} ${r.unit} (${CEILING_SETTINGS[r.name]})`;
}

/** Why no container can take this value, naming the deployment's ceiling; null when one can. */
function resourceValueProblem(r: TaskResource, value: unknown, ceilings: ResourceCeilings): string | null {
  const kind = r.whole ? 'a whole number' : 'a number';
  if (typeof value !== 'number') return `expected ${kind} of ${r.unit} (got ${JSON.stringify(value) ?? String(value)})`;
  if (!Number.isFinite(value)) return `${value} is no amount a container can take; ${ceilingText(r, ceilings)}`;
  if (value < r.min) return `${value} ${r.unit} is less than any container can run with (at least ${r.min} ${r.unit}); ${ceilingText(r, ceilings)}`;
  if (value > r.max) return `${value} ${r.unit} is more than any container can take (at most ${r.max} ${r.unit}); ${ceilingText(r, ceilings)}`;
  if (r.whole && !Number.isInteger(value)) return `expected ${kind} of ${r.unit} (got ${value})`;
  return null;
}

function resourceSchema(table: TaskResource['table'], key: string, ceilings: ResourceCeilings) {
  const r = resourceOf(table, key);
  return z
    .unknown()
    .transform((value, ctx): number => {
      const problem = resourceValueProblem(r, value, ceilings);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return value as number;
    })
    .default(r.harborDefault);
}

const taskTomlSchema = (ceilings: ResourceCeilings) => {
  const resource = (table: TaskResource['table'], key: string) => resourceSchema(table, key, ceilings);
  return z.looseObject({
    version: z.union([z.string(), z.number()]).optional(),
    metadata: z.looseObject({}).default({}),
    verifier: z.looseObject({ timeout_sec: resource('verifier', 'timeout_sec') }).default({ timeout_sec: 600 }),
    agent: z.looseObject({ timeout_sec: resource('agent', 'timeout_sec') }).default({ timeout_sec: 600 }),
    environment: z
      .looseObject({
        build_timeout_sec: resource('environment', 'build_timeout_sec'),
        cpus: resource('environment', 'cpus'),
        memory_mb: resource('environment', 'memory_mb'),
        storage_mb: resource('environment', 'storage_mb'),
        allow_internet: z.boolean().default(true),
        workdir: z.string().optional(),
        // An Envolve extension (Harbor ignores unknown keys): the task asks for gVisor. It can only
        // raise isolation; see resolveSandboxRuntime in lib/sandbox/runtime.ts.
        sandbox_runtime: z.enum(SANDBOX_RUNTIMES).optional(),
      })
      .default({ build_timeout_sec: 600, cpus: 1, memory_mb: 2048, storage_mb: 10240, allow_internet: true }),
  });
};

export type TaskTomlData = z.infer<ReturnType<typeof taskTomlSchema>>;

export interface TaskConfig extends TaskTomlData {
  raw: string;
}

export type TaskConfigResult = { ok: true; config: TaskConfig } | { ok: false; error: string };

/** task.toml parsed; a resource no container can take is an error naming the deployment's ceiling. */
export function parseTaskConfig(raw: string, ceilings: ResourceCeilings = settings().sandbox.ceilings): TaskConfigResult {
  let document: unknown;
  try {
    document = parse(raw);
  } catch (err) {
    if (err instanceof TomlError) {
      const reason = err.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? err.message;
      return { ok: false, error: `invalid TOML at line ${err.line}, column ${err.column}: ${reason}` };
    }
    throw err;
  }
  const parsed = taskTomlSchema(ceilings).safeParse(document);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    return { ok: false, error: `invalid settings: ${issues.join('; ')}` };
  }
  return { ok: true, config: { ...parsed.data, raw } };
}

/** The resources this task asks more of than the deployment's ceiling gives: said at import, clamped on every run. */
export function ceilingWarnings(config: TaskTomlData, ceilings: ResourceCeilings = settings().sandbox.ceilings): string[] {
  const asked = (r: TaskResource) => (config[r.table] as Record<string, number>)[r.key]!;
  return TASK_RESOURCES.filter((r) => asked(r) > ceilings[r.name]).map(
    (r) =>
      `[${r.table}] ${r.key} = ${asked(r)} is more than this deployment's ceiling: ${r.name === 'buildTimeoutSec' ? 'its image builds' : 'its trials'} run with ${ceilings[r.name]} ${r.unit} (${CEILING_SETTINGS[r.name]})`,
  );
}
