// The OCI runtime trial containers run under. runc (the engine's default) shares the host kernel,
// fenced by namespaces, cgroups, dropped capabilities and seccomp; runsc (gVisor) puts a
// user-space kernel between the task and the host, at a cost in start-up and syscall speed (see
// the README's Sandboxes section and `npm run bench`). ENVOLVE_SANDBOX_RUNTIME picks the default
// (runc); a request may name its own (a lineage's or an environment's choice).
import type Docker from 'dockerode';
import { SANDBOX_RUNTIMES, settings, type Settings } from '../config/settings.ts';
import type { Sandbox } from './types.ts';

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

/** A sandbox whose every trial and check runs under one runtime, whatever the setting says. */
export function withSandboxRuntime(sandbox: Sandbox, runtime: SandboxRuntime): Sandbox {
  return {
    buildEnvironmentImage: (bundle, opts) => sandbox.buildEnvironmentImage(bundle, opts),
    runTrial: (request) => sandbox.runTrial({ ...request, runtime }),
    reapContainers: (opts) => sandbox.reapContainers(opts),
    runChecks: (request) => sandbox.runChecks({ ...request, runtime }),
  };
}

export class SandboxRuntimeUnavailableError extends Error {
  constructor(runtime: SandboxRuntime, registered: string[]) {
    super(
      `sandbox runtime '${runtime}' is not registered with the Docker engine (it has: ${registered.join(', ') || 'none'}); ` +
        `as root run \`bash scripts/prereqs.sh docker\` (it installs gVisor's runsc from Debian and registers it with --network=none), ` +
        `or set ${SANDBOX_RUNTIME_ENV}=runc`,
    );
    this.name = 'SandboxRuntimeUnavailableError';
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
