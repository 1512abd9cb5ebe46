// task.toml parsed into a typed view. Only the keys Envolve acts on are typed;
// every other key (real collections use version = "2.0" files with extras such
// as subcategories or time estimates) is kept as parsed, and the raw text is
// kept too, because the stored file is the source of truth, not this view.

import { parse, TomlError } from 'smol-toml';
import { z } from 'zod';
import { SANDBOX_RUNTIMES } from '../config/index.ts';

// Defaults follow Harbor's, so a task means the same thing here and there.
const positive = z.number().positive();

const taskTomlSchema = z.looseObject({
  version: z.union([z.string(), z.number()]).optional(),
  metadata: z.looseObject({}).default({}),
  verifier: z.looseObject({ timeout_sec: positive.default(600) }).default({ timeout_sec: 600 }),
  agent: z.looseObject({ timeout_sec: positive.default(600) }).default({ timeout_sec: 600 }),
  environment: z
    .looseObject({
      build_timeout_sec: positive.default(600),
      cpus: positive.default(1),
      memory_mb: z.number().int().positive().default(2048),
      storage_mb: z.number().int().positive().default(10240),
      allow_internet: z.boolean().default(true),
      workdir: z.string().optional(),
      // An Envolve extension (Harbor ignores unknown keys): the task asks for gVisor. It can only
      // raise isolation; see resolveSandboxRuntime in lib/sandbox/runtime.ts.
      sandbox_runtime: z.enum(SANDBOX_RUNTIMES).optional(),
    })
    .default({ build_timeout_sec: 600, cpus: 1, memory_mb: 2048, storage_mb: 10240, allow_internet: true }),
});

export type TaskTomlData = z.infer<typeof taskTomlSchema>;

export interface TaskConfig extends TaskTomlData {
  raw: string;
}

export type TaskConfigResult = { ok: true; config: TaskConfig } | { ok: false; error: string };

export function parseTaskConfig(raw: string): TaskConfigResult {
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
  const parsed = taskTomlSchema.safeParse(document);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    return { ok: false, error: `invalid settings: ${issues.join('; ')}` };
  }
  return { ok: true, config: { ...parsed.data, raw } };
}
