// Docker hosts as the worker's --docker-host flag names them: a local socket, tcp:// or ssh://
// (what dockerode supports), each with its own concurrency limit after '#': tcp://builder:2375#4.
import Docker from 'dockerode';
import { guardContainerCreation } from './stopping.ts';

export interface DockerHostSpec {
  url: string; // as given, without the #limit
  capacity: number; // trials and builds run on it at once
}

export const DEFAULT_HOST_CAPACITY = 2;

export function parseDockerHost(text: string): DockerHostSpec {
  const [url = '', limit, ...rest] = text.split('#');
  if (!url || rest.length > 0) throw new Error(`--docker-host '${text}': expected URL[#limit], e.g. unix:///var/run/docker.sock#2 or tcp://host:2375#4`);
  const capacity = limit === undefined ? DEFAULT_HOST_CAPACITY : Number(limit);
  if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`--docker-host '${text}': the limit after '#' must be a positive integer`);
  dockerOptions(url);
  return { url, capacity };
}

function dockerOptions(url: string): Docker.DockerOptions {
  if (url.startsWith('/')) return { socketPath: url };
  const parsed = new URL(url);
  switch (parsed.protocol) {
    case 'unix:':
      return { socketPath: parsed.pathname };
    case 'tcp:':
    case 'http:':
      return { protocol: 'http', host: parsed.hostname, port: Number(parsed.port || 2375) };
    case 'https:':
      return { protocol: 'https', host: parsed.hostname, port: Number(parsed.port || 2376) };
    case 'ssh:':
      return { protocol: 'ssh', host: parsed.hostname, port: Number(parsed.port || 22), username: parsed.username || undefined };
    default:
      throw new Error(`Docker host '${url}': unsupported scheme ${parsed.protocol} (use a socket path, unix://, tcp://, https:// or ssh://)`);
  }
}

export function dockerFor(url: string): Docker {
  return guardContainerCreation(new Docker(dockerOptions(url)));
}
