// Multi-container tasks: environment/docker-compose.yaml with a `main` service (built from
// environment/Dockerfile, where the agent and the verifier run) and sidecars (a database, an HTTP
// or MCP server). Each trial gets its own internal network (no route out), its sidecars started on
// it before the agent under the trial's limits and labels, and all of it removed with the trial.
// What this runner cannot honour is refused up front with the reason, never half-run.
import { randomUUID } from 'node:crypto';
import type Docker from 'dockerode';
import { parse } from 'yaml';
import { bundleFile, type TaskBundle } from '../env/bundle.ts';
import { isNotFound } from './docker.ts';
import { hostConfigFor, resolveLimits } from './resource-limits.ts';
import { EXPIRY_MARGIN_SEC } from './warm-pool.ts';
import type { TrialRequest } from './types.ts';

export const MAIN_SERVICE = 'main';
export const COMPOSE_FILES = ['environment/docker-compose.yaml', 'environment/docker-compose.yml', 'environment/compose.yaml', 'environment/compose.yml'];

export interface Sidecar {
  name: string;
  image: string;
  command?: string[];
  environment: Record<string, string>;
}

export type ComposeSpec = { ok: true; sidecars: Sidecar[] } | { ok: false; reason: string };

// Keys a sidecar may use; anything else (ports, volumes, privileges, its own networks) is refused.
const SIDECAR_KEYS = new Set(['image', 'command', 'environment', 'container_name', 'healthcheck', 'depends_on']);
const MAIN_KEYS = new Set(['build', 'image', 'depends_on', 'environment', 'container_name']);

export function composeFileOf(bundle: TaskBundle): { path: string; text: string } | undefined {
  const path = COMPOSE_FILES.find((p) => bundleFile(bundle, p));
  return path ? { path, text: bundleFile(bundle, path)!.content.toString('utf8') } : undefined;
}

function asCommand(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.map(String);
  return ['sh', '-c', String(value)];
}

function asEnvironment(value: unknown): Record<string, string> {
  if (Array.isArray(value)) return Object.fromEntries(value.map((e) => String(e).split(/=(.*)/s).slice(0, 2) as [string, string]));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v ?? '')]));
  return {};
}

export function parseCompose(path: string, text: string): ComposeSpec {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    return { ok: false, reason: `${path} is not valid YAML: ${(err as Error).message.split('\n')[0]}` };
  }
  const services = (doc as { services?: Record<string, Record<string, unknown>> } | null)?.services;
  if (!services || typeof services !== 'object') return { ok: false, reason: `${path} has no services` };
  const main = services[MAIN_SERVICE];
  if (!main) return { ok: false, reason: `${path} has no '${MAIN_SERVICE}' service (the container the agent and the tests run in)` };
  const extraMain = Object.keys(main).filter((k) => !MAIN_KEYS.has(k));
  if (extraMain.length) return { ok: false, reason: `${path}: the main service uses ${extraMain.join(', ')}, which Envolve does not run` };
  const sidecars: Sidecar[] = [];
  for (const [name, service] of Object.entries(services)) {
    if (name === MAIN_SERVICE) continue;
    const extra = Object.keys(service ?? {}).filter((k) => !SIDECAR_KEYS.has(k));
    if (extra.length) return { ok: false, reason: `${path}: service '${name}' uses ${extra.join(', ')}, which Envolve does not run` };
    if (typeof service.image !== 'string') return { ok: false, reason: `${path}: service '${name}' has no image (sidecars are not built)` };
    sidecars.push({ name, image: service.image, command: asCommand(service.command), environment: asEnvironment(service.environment) });
  }
  return { ok: true, sidecars };
}

export interface RunningServices {
  network: { name: string; aliases: string[] };
  containers: Docker.Container[];
  teardown(mainContainerId?: string): Promise<void>;
}

// Creates the trial's internal network and starts the sidecars on it (under runc: see
// DockerSandbox.runTrial), each under the trial's
// limits and with an expiry label the reaper honours.
export async function startServices(docker: Docker, sidecars: Sidecar[], req: TrialRequest): Promise<RunningServices> {
  const name = `envolve-trial-${randomUUID().slice(0, 12)}`;
  const expires = String(Math.floor(Date.now() / 1000 + req.agentTimeoutSec + req.verifierTimeoutSec + EXPIRY_MARGIN_SEC));
  const labels = { ...req.labels, 'envolve.managed': '1', 'envolve.task': req.bundle.name, 'envolve.expires': expires };
  const network = await docker.createNetwork({ Name: name, Driver: 'bridge', Internal: true, Labels: labels });
  const containers: Docker.Container[] = [];
  const teardown = async (mainContainerId?: string) => {
    await Promise.all(containers.map((c) => c.remove({ force: true }).catch(() => undefined)));
    if (mainContainerId) await network.disconnect({ Container: mainContainerId, Force: true }).catch(() => undefined);
    await network.remove().catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  };
  try {
    for (const sidecar of sidecars) {
      const container = await docker.createContainer({
        Image: sidecar.image,
        ...(sidecar.command ? { Cmd: sidecar.command } : {}),
        Env: Object.entries(sidecar.environment).map(([k, v]) => `${k}=${v}`),
        Labels: { ...labels, 'envolve.service': sidecar.name },
        HostConfig: { ...hostConfigFor(resolveLimits(req.limits), 'runc'), NetworkMode: name },
        NetworkingConfig: { EndpointsConfig: { [name]: { Aliases: [sidecar.name] } } },
      });
      containers.push(container);
      await container.start();
    }
  } catch (err) {
    await teardown();
    throw err;
  }
  return { network: { name, aliases: [MAIN_SERVICE] }, containers, teardown };
}

// Removes the per-trial networks whose expiry passed (a crashed worker's), once the container
// reaper has removed what was attached to them; a network still in use is left for next time.
// `labels` narrows it (label=value filters), e.g. to one job's networks.
export async function reapTrialNetworks(docker: Docker, opts: { now?: Date; labels?: string[] } = {}): Promise<string[]> {
  const nowSec = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const networks = await docker.listNetworks({ filters: { label: ['envolve.managed=1', ...(opts.labels ?? [])] } });
  const removed: string[] = [];
  for (const info of networks) {
    const expiredAt = Number(info.Labels?.['envolve.expires']);
    if (!Number.isFinite(expiredAt) || expiredAt > nowSec) continue;
    try {
      await docker.getNetwork(info.Id).remove();
      removed.push(info.Name);
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status !== 404 && status !== 403 && status !== 409) throw err;
    }
  }
  return removed;
}
