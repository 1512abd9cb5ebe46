// The OCI runtime trial containers run under. runc (the engine's default) shares the host kernel,
// fenced by namespaces, cgroups, dropped capabilities and seccomp; runsc (gVisor) puts a
// user-space kernel between the task and the host, at a cost in start-up and syscall speed (see
// the README's Sandboxes section and `npm run bench`). ENVOLVE_SANDBOX_RUNTIME picks the
// deployment's default (runc); a lineage may choose its own, and an environment's task.toml may
// require runsc (never runc: see resolveSandboxRuntime).
import type Docker from 'dockerode';
import { SANDBOX_RUNTIMES, settings, type Settings } from '../config/index.ts';
import type { BundleFile } from '../bundle/index.ts';
import { parseTaskConfig } from '../bundle/index.ts';
import type { Sandbox } from './types.ts';
import { UnavailableError } from '../errors/index.ts';

export { SANDBOX_RUNTIMES };
export type SandboxRuntime = (typeof SANDBOX_RUNTIMES)[number];
export const SANDBOX_RUNTIME_ENV = 'ENVOLVE_SANDBOX_RUNTIME';
export const DEFAULT_SANDBOX_RUNTIME: SandboxRuntime = 'runc';

export function isSandboxRuntime(value: string): value is SandboxRuntime {
  return (SANDBOX_RUNTIMES as readonly string[]).includes(value);
}

export function parseSandboxRuntime(raw: string | undefined, source = SANDBOX_RUNTIME_ENV): SandboxRuntime {
  if (raw === undefined || raw.trim() === '') return DEFAULT_SANDBOX_RUNTIME;
  const value = raw.trim();
  if (!isSandboxRuntime(value)) throw new Error(`${source}='${raw}': expected one of ${SANDBOX_RUNTIMES.join(', ')}`);
  return value;
}

/** The runtime named by ENVOLVE_SANDBOX_RUNTIME (runc when unset), from the settings module. */
export function configuredSandboxRuntime(s: Settings = settings()): SandboxRuntime {
  return s.sandbox.runtime;
}

export type SandboxRuntimeSource = 'deployment' | 'lineage' | 'environment';

export interface ResolvedSandboxRuntime {
  runtime: SandboxRuntime;
  source: SandboxRuntimeSource; // what decided it, so a user can see why
}

export interface SandboxRuntimeChoices {
  deployment: SandboxRuntime; // ENVOLVE_SANDBOX_RUNTIME
  lineage?: SandboxRuntime; // the lineage's setting, absent when it keeps the deployment's
  environment?: SandboxRuntime; // the environment's task.toml `[environment] sandbox_runtime`
}

/**
 * The lineage's choice if it made one, else the deployment's; then runsc if the environment
 * requires it. An environment's files are written by synthesisers and LLM modifiers, so they
 * are untrusted: they may raise isolation (ask for runsc) but never lower it, and
 * `sandbox_runtime = "runc"` changes nothing.
 */
export function resolveSandboxRuntime(choices: SandboxRuntimeChoices): ResolvedSandboxRuntime {
  const chosen: ResolvedSandboxRuntime = choices.lineage
    ? { runtime: choices.lineage, source: 'lineage' }
    : { runtime: choices.deployment, source: 'deployment' };
  if (choices.environment === 'runsc' && chosen.runtime !== 'runsc') return { runtime: 'runsc', source: 'environment' };
  return chosen;
}

const SOURCE_WORDS: Record<SandboxRuntimeSource, string> = {
  deployment: `the deployment's default, ${SANDBOX_RUNTIME_ENV}`,
  lineage: "the lineage's choice",
  environment: "required by the environment's task.toml",
};

/** e.g. "runsc (required by the environment's task.toml)". */
export function describeSandboxRuntime(resolved: ResolvedSandboxRuntime): string {
  return `${resolved.runtime} (${SOURCE_WORDS[resolved.source]})`;
}

/**
 * The runtime the files' own task.toml requires, if any. A file that does not parse requires
 * nothing: it could only have raised isolation, and the callers that need its settings refuse it.
 */
export function environmentRuntime(files: readonly BundleFile[]): SandboxRuntime | undefined {
  const toml = files.find((f) => f.path === 'task.toml');
  if (!toml) return undefined;
  const parsed = parseTaskConfig(toml.content.toString('utf8'));
  return parsed.ok ? parsed.config.environment.sandbox_runtime : undefined;
}

/**
 * The runtime a trial or a set of checks runs under: `runtime` is the lineage's choice (set by
 * withSandboxRuntime), `files` the environment's own files, whose task.toml may require runsc.
 */
export function sandboxRuntimeFor(
  runtime: SandboxRuntime | undefined,
  files: readonly BundleFile[],
  deployment: SandboxRuntime = configuredSandboxRuntime(),
): ResolvedSandboxRuntime {
  return resolveSandboxRuntime({ deployment, lineage: runtime, environment: environmentRuntime(files) });
}

/** A sandbox whose every trial and check runs under one runtime, whatever the setting says. */
export function withSandboxRuntime(sandbox: Sandbox, runtime: SandboxRuntime): Sandbox {
  return {
    buildEnvironmentImage: (bundle, opts) => sandbox.buildEnvironmentImage(bundle, opts),
    runTrial: (request) => sandbox.runTrial({ ...request, runtime }),
    reapContainers: (opts) => sandbox.reapContainers(opts),
    runChecks: (request) => sandbox.runChecks({ ...request, runtime }),
  };
}

export class SandboxRuntimeUnavailableError extends UnavailableError {
  constructor(runtime: SandboxRuntime, registered: string[]) {
    super(
      `sandbox runtime '${runtime}' is not registered with the Docker engine (it has: ${registered.join(', ') || 'none'}); ` +
        `as root run \`bash scripts/prereqs.sh docker\` (it installs gVisor's runsc from Debian and registers it with --network=none), ` +
        `or set ${SANDBOX_RUNTIME_ENV}=runc`,
      { code: 'sandbox_runtime_unavailable', details: { runtime, registered } },
    );
  }
}

// Runtimes are registered in daemon.json and reloaded on SIGHUP, so the answer is cached only
// while it says yes.
const registered = new WeakMap<Docker, Set<string>>();

export async function registeredRuntimes(docker: Docker): Promise<string[]> {
  const info = (await docker.info()) as { Runtimes?: Record<string, unknown>; DefaultRuntime?: string };
  return Object.keys(info.Runtimes ?? {});
}

/** Throws SandboxRuntimeUnavailableError unless the engine knows the runtime (runc always is). */
export async function assertRuntimeRegistered(docker: Docker, runtime: SandboxRuntime): Promise<void> {
  if (runtime === 'runc' || registered.get(docker)?.has(runtime)) return;
  const names = await registeredRuntimes(docker);
  if (!names.includes(runtime)) throw new SandboxRuntimeUnavailableError(runtime, names);
  registered.set(docker, new Set(names));
}
