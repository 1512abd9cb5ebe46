// One place that knows how to reach the Docker engine. docker-modem already
// reads DOCKER_HOST (unix://, tcp://, npipe://) and falls back to
// /var/run/docker.sock, so a plain `new Docker()` honours the environment.
import { Agent } from 'node:http';
import { inspect } from 'node:util';
import Docker from 'dockerode';
import { settings } from '../config/index.ts';
import { UnavailableError } from '../errors/index.ts';
import { guardContainerCreation } from './stopping.ts';

// On the local socket, connections are kept open between requests. docker-modem formats every
// request's options with util.inspect (showHidden, unlimited depth) before it checks whether its
// debug log is on, and the options carry the agent: inspected in full (sockets, free lists), it
// doubled the Node CPU of a validation (90 ms against 44, bench/sandbox-overhead.ts's sustained
// run is CPU-bound), so the agent describes itself in one line.
// Every engine it returns refuses to create containers once the process is stopping (stopping.ts).
export function createDocker(): Docker {
  const host = settings().sandbox.dockerHost;
  if (host && !host.startsWith('unix://')) return guardContainerCreation(new Docker());
  // docker-modem passes `agent` to every request; dockerode's types do not list it.
  const agent = Object.assign(new Agent({ keepAlive: true }), { [inspect.custom]: () => 'Agent { keepAlive: true }' });
  return guardContainerCreation(new Docker({ agent } as Docker.DockerOptions));
}

export class DockerUnavailableError extends UnavailableError {
  constructor(cause: unknown) {
    const where = settings().sandbox.dockerHost ?? 'unix:///var/run/docker.sock';
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      `the Docker engine at ${where} does not answer (${why}); ` +
        'run `bash scripts/prereqs.sh docker` to install and start it (it starts dockerd --bridge=none)',
      { code: 'docker_unavailable', cause },
    );
  }
}

// Throws DockerUnavailableError with what to do; returns the engine version.
export async function dockerAvailable(docker: Docker = createDocker()): Promise<string> {
  try {
    const version = await docker.version();
    return version.Version;
  } catch (err) {
    throw new DockerUnavailableError(err);
  }
}

export function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { statusCode?: number }).statusCode === 404;
}
