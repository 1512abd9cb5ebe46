// A process that begins to stop creates no more sandboxes and leaves none behind. Once
// stopCreatingSandboxes() is called, every container creation through createDocker()'s engine is
// refused with SandboxStoppingError, and removeOwnContainers() removes every container this process
// made (in-flight trials included: their jobs go back to the queue, whose retry redoes them). A
// failure a sandbox meets after that point is the stop's doing, not the environment's: the callers
// that turn sandbox failures into verdicts or records call rethrowIfStopping first, so a stop never
// becomes a failed validation, a held generation or an errored rollout.
import type Docker from 'dockerode';
import { UnavailableError } from '../errors/index.ts';
import { OWNER_LABEL, ownerLabel } from './owner.ts';

let stoppingReason: string | null = null;
// Every engine this process reaches sandboxes through (the default one and a host pool's).
const engines = new Set<Docker>();
// Creations sent and not yet answered, on every engine.
const creating = new Set<Promise<Docker.Container>>();

export class SandboxStoppingError extends UnavailableError {
  constructor(reason: string, cause?: unknown) {
    super(`interrupted: ${reason}; no new sandbox is created and the work goes back to the queue`, { code: 'sandbox_stopping', cause });
  }
}

/** From now on this process creates no container (idempotent: the first reason is kept). */
export function stopCreatingSandboxes(reason: string): void {
  stoppingReason ??= reason;
}

export function sandboxesStopping(): string | null {
  return stoppingReason;
}

/** Throws a SandboxStoppingError when the process is stopping; otherwise returns and the caller handles `err`. */
export function rethrowIfStopping(err: unknown): void {
  if (err instanceof SandboxStoppingError) throw err;
  if (stoppingReason) throw new SandboxStoppingError(stoppingReason, err);
}

/**
 * Refuses container creation on this engine once the process is stopping, and remembers the engine
 * for removeOwnContainers. A creation already sent when the stop begins may land after the removal
 * listed the engine's containers: it removes its own container and fails with SandboxStoppingError,
 * so it never runs.
 */
export function guardContainerCreation(docker: Docker): Docker {
  engines.add(docker);
  const create = docker.createContainer.bind(docker) as (options: Docker.ContainerCreateOptions) => Promise<Docker.Container>;
  docker.createContainer = ((options: Docker.ContainerCreateOptions) => {
    if (stoppingReason) return Promise.reject(new SandboxStoppingError(stoppingReason));
    const created = create(options).then(async (container) => {
      if (!stoppingReason) return container;
      await container.remove({ force: true, v: true }).catch(() => undefined);
      throw new SandboxStoppingError(stoppingReason);
    });
    creating.add(created);
    created.then(
      () => creating.delete(created),
      () => creating.delete(created),
    );
    return created;
  }) as Docker['createContainer'];
  return docker;
}

/** Removes every container this process created (trials, checks, sidecars, pooled ones) on every engine it used; returns how many. */
export async function removeOwnContainers(): Promise<number> {
  // A creation under way either lands before the list below or removes its own container.
  await Promise.allSettled([...creating]);
  const counts = await Promise.all([...engines].map(removeOwnContainersOn));
  return counts.reduce((a, b) => a + b, 0);
}

async function removeOwnContainersOn(docker: Docker): Promise<number> {
  const mine = await docker.listContainers({ all: true, filters: { label: [`${OWNER_LABEL}=${ownerLabel()}`] } });
  // Two engine objects may reach one engine: a container the other already removed is not counted.
  const removed = await Promise.allSettled(mine.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true })));
  return removed.filter((r) => r.status === 'fulfilled').length;
}
