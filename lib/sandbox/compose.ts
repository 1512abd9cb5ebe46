// Multi-container tasks: environment/docker-compose.yaml with a `main` service (built from
// environment/Dockerfile, where the agent and the verifier run) and sidecars (a database, an HTTP
// or MCP server). Each trial gets its own internal network (no route out), its sidecars started on
// it before the agent under the trial's limits and labels, and all of it removed with the trial.
// What this runner cannot honour is refused up front with the reason, never half-run.
import { randomUUID } from 'node:crypto';
import type Docker from 'dockerode';
import { parse } from 'yaml';
import { bundleFile, filesUnder, type TaskBundle, packTarBuffer, type TarEntry } from '../bundle/index.ts';
import { isNotFound } from './docker.ts';
import { OWNER_LABEL, ownerLabel } from './owner.ts';
import { hostConfigFor, resolveLimits } from './resource-limits.ts';
import { EXPIRY_MARGIN_SEC } from './warm-pool.ts';
import type { TrialRequest } from './types.ts';
import {
  asCommand,
  asEnvironment,
  asList,
  healthVerdictWithinMs,
  parseDependsOn,
  parseHealthcheck,
  parseVolumes,
  type DependsCondition,
  type Healthcheck,
  type TaskFileVolume,
} from './compose-keys.ts';

export const MAIN_SERVICE = 'main';
export const COMPOSE_FILES = ['environment/docker-compose.yaml', 'environment/docker-compose.yml', 'environment/compose.yaml', 'environment/compose.yml'];

export interface Sidecar {
  name: string;
  image: string;
  command?: string[];
  entrypoint?: string[];
  environment: Record<string, string>;
  workingDir?: string;
  user?: string;
  tmpfs: string[]; // paths, each a size-capped tmpfs like the trial's /tmp
  volumes: TaskFileVolume[]; // the task's own files, copied in read-only before it starts
  healthcheck?: Healthcheck;
  dependsOn: Record<string, DependsCondition>;
}

// Sidecars in start order (each after what it depends on), and what `main` waits for.
export type ComposeSpec = { ok: true; sidecars: Sidecar[]; mainDependsOn: Record<string, DependsCondition> } | { ok: false; reason: string };

// Keys a sidecar may use. `expose` only documents a port: every port of a sidecar is reachable
// on the trial's network. `volumes` only of the task's own files, read-only: they are copied into
// the sidecar (the engine may be on another machine). Anything else (published ports, privileges,
// its own networks) is refused with the reason.
const SIDECAR_KEYS = new Set([
  'image',
  'command',
  'entrypoint',
  'environment',
  'container_name',
  'healthcheck',
  'depends_on',
  'expose',
  'working_dir',
  'user',
  'tmpfs',
  'volumes',
]);
const MAIN_KEYS = new Set(['build', 'image', 'depends_on', 'environment', 'container_name', 'expose']);
const WHY_NOT: Record<string, string> = {
  ports: 'trials have no host network; services reach each other by name',
  build: 'only main is built; a sidecar runs an image',
  privileged: 'no container is privileged',
  network_mode: 'each trial has one internal network',
  networks: 'each trial has one internal network',
};

export function composeFileOf(bundle: TaskBundle): { path: string; text: string } | undefined {
  const path = COMPOSE_FILES.find((p) => bundleFile(bundle, p));
  return path ? { path, text: bundleFile(bundle, path)!.content.toString('utf8') } : undefined;
}

function refusedKeys(path: string, service: string, keys: string[]): string {
  const reasons = keys.map((k) => (WHY_NOT[k] ? `${k} (${WHY_NOT[k]})` : k));
  return `${path}: service '${service}' uses ${reasons.join(', ')}, which Envolve does not run`;
}

function sidecarOf(name: string, service: Record<string, unknown>): Sidecar {
  return {
    name,
    image: String(service.image),
    command: asCommand(service.command),
    entrypoint: asCommand(service.entrypoint),
    environment: asEnvironment(service.environment),
    workingDir: service.working_dir === undefined ? undefined : String(service.working_dir),
    user: service.user === undefined ? undefined : String(service.user),
    tmpfs: asList(service.tmpfs).map((t) => t.split(':')[0]!),
    volumes: parseVolumes(service.volumes),
    healthcheck: parseHealthcheck(service.healthcheck),
    dependsOn: parseDependsOn(service.depends_on),
  };
}

// Each sidecar after the ones it depends on; undefined when they depend on each other in a cycle.
function inStartOrder(sidecars: Sidecar[]): Sidecar[] | undefined {
  const ordered: Sidecar[] = [];
  const placed = new Set<string>();
  while (ordered.length < sidecars.length) {
    const next = sidecars.find((s) => !placed.has(s.name) && Object.keys(s.dependsOn).every((d) => placed.has(d)));
    if (!next) return undefined;
    ordered.push(next);
    placed.add(next.name);
  }
  return ordered;
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
  let mainDependsOn: Record<string, DependsCondition>;
  try {
    mainDependsOn = parseDependsOn(main.depends_on);
    for (const [name, service] of Object.entries(services)) {
      if (name === MAIN_SERVICE) continue;
      const extra = Object.keys(service ?? {}).filter((k) => !SIDECAR_KEYS.has(k));
      if (extra.length) return { ok: false, reason: refusedKeys(path, name, extra) };
      if (typeof service.image !== 'string') return { ok: false, reason: `${path}: service '${name}' has no image (sidecars are not built)` };
      sidecars.push(sidecarOf(name, service));
    }
  } catch (err) {
    return { ok: false, reason: `${path}: ${(err as Error).message}` };
  }
  const names = new Set(sidecars.map((s) => s.name));
  for (const [service, deps] of [[MAIN_SERVICE, mainDependsOn] as const, ...sidecars.map((s) => [s.name, s.dependsOn] as const)]) {
    const unknown = Object.keys(deps).filter((d) => !names.has(d));
    if (unknown.length) return { ok: false, reason: `${path}: service '${service}' depends on ${unknown.join(', ')}, which is not a sidecar here` };
  }
  const ordered = inStartOrder(sidecars);
  if (!ordered) return { ok: false, reason: `${path}: the services' depends_on form a cycle` };
  return { ok: true, sidecars: ordered, mainDependsOn };
}

// A compose file's spec, read against the task's files: a volume of files the task lacks is refused too.
export function taskComposeSpec(bundle: TaskBundle, compose: { path: string; text: string }): ComposeSpec {
  const spec = parseCompose(compose.path, compose.text);
  if (!spec.ok) return spec;
  for (const sidecar of spec.sidecars) {
    const missing = sidecar.volumes.find(({ source }) => !bundleFile(bundle, source) && !filesUnder(bundle, source).length);
    if (missing) return { ok: false, reason: `${compose.path}: service '${sidecar.name}' mounts ${missing.source}, which is not among the task's files` };
  }
  return spec;
}

export interface RunningServices {
  network: { name: string; aliases: string[] };
  containers: Docker.Container[];
  teardown(mainContainerId?: string): Promise<void>;
}

// Creates the trial's internal network and starts the sidecars on it (under runc: see
// DockerSandbox.runTrial), each under the trial's limits and with an expiry label the reaper
// honours, each after the conditions it depends on hold; returns once main's conditions hold.
// `images` pins a sidecar to the image ID its environment was built with.
export async function startServices(
  docker: Docker,
  spec: { sidecars: Sidecar[]; mainDependsOn: Record<string, DependsCondition> },
  req: TrialRequest,
  images: Record<string, string> = {},
): Promise<RunningServices> {
  const name = `envolve-trial-${randomUUID().slice(0, 12)}`;
  const expires = String(Math.floor(Date.now() / 1000 + req.agentTimeoutSec + req.verifierTimeoutSec + EXPIRY_MARGIN_SEC));
  const labels = { ...req.labels, 'envolve.managed': '1', 'envolve.task': req.bundle.name, 'envolve.expires': expires, [OWNER_LABEL]: ownerLabel() };
  const network = await docker.createNetwork({ Name: name, Driver: 'bridge', Internal: true, Labels: labels });
  const containers: Docker.Container[] = [];
  const teardown = async (mainContainerId?: string) => {
    await Promise.all(containers.map((c) => c.remove({ force: true }).catch(() => undefined)));
    if (mainContainerId) await network.disconnect({ Container: mainContainerId, Force: true }).catch(() => undefined);
    await network.remove().catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  };
  const limits = resolveLimits(req.limits);
  const started = new Map<string, { container: Docker.Container; sidecar: Sidecar }>();
  const waitFor = (deps: Record<string, DependsCondition>) =>
    Promise.all(Object.entries(deps).map(([dep, condition]) => awaitCondition(started.get(dep)!, condition)));
  try {
    for (const sidecar of spec.sidecars) {
      await waitFor(sidecar.dependsOn);
      const hostConfig = hostConfigFor(limits, 'runc');
      const tmpfs = Object.fromEntries(sidecar.tmpfs.map((path) => [path, `rw,nosuid,nodev,size=${limits.tmpfsMb}m`]));
      const container = await docker.createContainer({
        Image: images[sidecar.name] ?? sidecar.image,
        ...(sidecar.command ? { Cmd: sidecar.command } : {}),
        ...(sidecar.entrypoint ? { Entrypoint: sidecar.entrypoint } : {}),
        ...(sidecar.workingDir ? { WorkingDir: sidecar.workingDir } : {}),
        ...(sidecar.user ? { User: sidecar.user } : {}),
        ...(sidecar.healthcheck ? { Healthcheck: sidecar.healthcheck } : {}),
        Env: Object.entries(sidecar.environment).map(([k, v]) => `${k}=${v}`),
        Labels: { ...labels, 'envolve.service': sidecar.name },
        HostConfig: { ...hostConfig, Tmpfs: { ...hostConfig.Tmpfs, ...tmpfs }, NetworkMode: name },
        NetworkingConfig: { EndpointsConfig: { [name]: { Aliases: [sidecar.name] } } },
      });
      containers.push(container);
      if (sidecar.volumes.length) await container.putArchive(await volumeTar(req.bundle, sidecar), { path: '/' });
      await container.start();
      started.set(sidecar.name, { container, sidecar });
    }
    await waitFor(spec.mainDependsOn);
  } catch (err) {
    await teardown();
    throw err;
  }
  return { network: { name, aliases: [MAIN_SERVICE] }, containers, teardown };
}

// The sidecar's volumes as one tar to unpack at /: each file at its place under the target.
async function volumeTar(bundle: TaskBundle, sidecar: Sidecar): Promise<Buffer> {
  const entries: TarEntry[] = sidecar.volumes.flatMap(({ source, target }) => {
    const file = bundleFile(bundle, source);
    if (file) return [{ ...file, path: target.slice(1) }];
    const files = filesUnder(bundle, source);
    if (!files.length) throw new Error(`service '${sidecar.name}' mounts ${source}, which is not among the task's files`);
    return files.map((f) => ({ ...f, path: `${target.slice(1)}/${f.path.slice(source.length + 1)}`.replace(/^\//, '') }));
  });
  return packTarBuffer(entries, { readOnly: true });
}

const POLL_MS = 200;

// Waits for a depends_on condition the way compose does: started (already true), healthy (as
// the engine's healthcheck says, within the time the healthcheck itself allows), or exited 0.
async function awaitCondition({ container, sidecar }: { container: Docker.Container; sidecar: Sidecar }, condition: DependsCondition): Promise<void> {
  if (condition === 'service_started') return;
  if (condition === 'service_completed_successfully') {
    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    if (StatusCode !== 0) throw new Error(`service '${sidecar.name}' exited with code ${StatusCode}; a service depends on it completing successfully`);
    return;
  }
  if (!sidecar.healthcheck) throw new Error(`service '${sidecar.name}' has no healthcheck; a service depends on it being healthy`);
  await awaitHealthy(container, sidecar.name, sidecar.healthcheck);
}

async function awaitHealthy(container: Docker.Container, name: string, healthcheck: Healthcheck): Promise<void> {
  const deadline = Date.now() + healthVerdictWithinMs(healthcheck);
  for (;;) {
    const { State } = await container.inspect();
    const status = State.Health?.Status;
    if (status === 'healthy') return;
    const lastOutput = State.Health?.Log?.at(-1)?.Output?.trim();
    if (!State.Running) throw new Error(`service '${name}' stopped (exit code ${State.ExitCode}) before it was healthy`);
    if (status === 'unhealthy' || Date.now() > deadline) {
      throw new Error(`service '${name}' did not become healthy${lastOutput ? ` (last healthcheck output: ${lastOutput.slice(0, 300)})` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
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
