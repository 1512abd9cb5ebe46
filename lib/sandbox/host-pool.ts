// A Sandbox over several Docker hosts. Work goes to the healthy host with the most free slots; a
// host that stops answering is drained (no new work) and the trial that found it gone runs again on
// another host; health checks bring it back. Images keep their IDs across hosts: an image built on
// one host is copied to another with save/load (which preserves the ID) and checked by ID there.
import type Docker from 'dockerode';
import type { TaskBundle } from '../bundle/index.ts';
import { BASE_IMAGE_REPO, BASE_IMAGE_SUITE, BASE_IMAGE_TAG, baseRecipeHash, ensureBaseImage } from './base-image.ts';
import { isNotFound } from './docker.ts';
import { DockerSandbox } from './docker-sandbox.ts';
import { dockerFor, type DockerHostSpec } from './docker-hosts.ts';
import type { ChecksRequest, ChecksResult } from './run-checks.ts';
import type { BuildOptions, BuildResult, ReapedContainer, ReapOptions, Sandbox, TrialRequest, TrialResult } from './types.ts';
import { UnavailableError } from '../errors/index.ts';

const PING_TIMEOUT_MS = 5_000;
const HEALTH_INTERVAL_MS = 15_000;

export interface PoolHost {
  readonly spec: DockerHostSpec;
  readonly docker: Docker;
  readonly sandbox: DockerSandbox;
  active: number;
  healthy: boolean;
  lastError?: string;
  baseReady?: Promise<void>;
}

export class NoHealthyDockerHostError extends UnavailableError {
  constructor(hosts: PoolHost[]) {
    super(`no healthy Docker host: ${hosts.map((h) => `${h.spec.url} (${h.lastError ?? 'unknown'})`).join('; ')}`, { code: 'no_healthy_docker_host' });
  }
}

export class DockerHostPool implements Sandbox {
  readonly hosts: PoolHost[];
  readonly #log: (message: string) => void;
  readonly #waiters: (() => void)[] = [];
  readonly #copies = new Map<string, Promise<void>>();
  #healthTimer: NodeJS.Timeout | undefined;

  constructor(specs: DockerHostSpec[], log: (message: string) => void = () => {}, dockerOf: (url: string) => Docker = dockerFor) {
    if (specs.length === 0) throw new Error('a Docker host pool needs at least one host');
    this.hosts = specs.map((spec) => {
      const docker = dockerOf(spec.url);
      return { spec, docker, sandbox: new DockerSandbox(docker), active: 0, healthy: true };
    });
    this.#log = log;
  }

  /** Pings every host; drained hosts that answer again return to service. */
  async checkHealth(): Promise<void> {
    await Promise.all(this.hosts.map((host) => this.#ping(host)));
    this.#wake();
  }

  startHealthChecks(intervalMs = HEALTH_INTERVAL_MS): void {
    this.#healthTimer ??= setInterval(() => void this.checkHealth(), intervalMs);
    this.#healthTimer.unref();
  }

  close(): void {
    clearInterval(this.#healthTimer);
    this.#healthTimer = undefined;
  }

  async #ping(host: PoolHost): Promise<boolean> {
    try {
      await Promise.race([
        host.docker.ping(),
        new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS).unref()),
      ]);
      if (!host.healthy) this.#log(`docker host ${host.spec.url}: answering again, back in service`);
      host.healthy = true;
      host.lastError = undefined;
    } catch (error) {
      if (host.healthy) this.#log(`docker host ${host.spec.url}: drained (${error instanceof Error ? error.message : String(error)})`);
      host.healthy = false;
      host.lastError = error instanceof Error ? error.message : String(error);
      host.baseReady = undefined; // a host that comes back may have lost its images
    }
    return host.healthy;
  }

  // The healthy host with the most free slots; waits while every healthy host is full.
  async #acquire(exclude: Set<PoolHost>): Promise<PoolHost> {
    for (;;) {
      const candidates = this.hosts.filter((h) => h.healthy && !exclude.has(h));
      if (candidates.length === 0) throw new NoHealthyDockerHostError(this.hosts);
      const best = candidates.reduce((a, b) => (b.spec.capacity - b.active > a.spec.capacity - a.active ? b : a));
      if (best.active < best.spec.capacity) {
        best.active++;
        return best;
      }
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  #release(host: PoolHost): void {
    host.active--;
    this.#wake();
  }

  #wake(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /**
   * Runs `work` on a host; when it fails (or reports a failure) and the host no longer answers, the
   * host is drained and the work runs again on another one.
   */
  async #place<T>(work: (host: PoolHost) => Promise<T>, failed: (result: T) => boolean = () => false): Promise<T> {
    const tried = new Set<PoolHost>();
    for (;;) {
      const host = await this.#acquire(tried);
      tried.add(host);
      let outcome: { ok: true; value: T } | { ok: false; error: unknown };
      try {
        outcome = { ok: true, value: await work(host) };
      } catch (error) {
        outcome = { ok: false, error };
      } finally {
        this.#release(host);
      }
      const hostLost = (!outcome.ok || failed(outcome.value)) && !(await this.#ping(host));
      if (!hostLost) {
        if (outcome.ok) return outcome.value;
        throw outcome.error;
      }
      this.#log(`docker host ${host.spec.url} was lost mid-work; moving the work to another host`);
    }
  }

  // The base image on `host`, with the same ID as on every other host (copied, or built on the first).
  #ensureBase(host: PoolHost): Promise<void> {
    host.baseReady ??= (async () => {
      const tag = `${BASE_IMAGE_TAG}-${baseRecipeHash()}`;
      const source = await this.#hostWithImage(tag, host);
      if (!source) {
        await ensureBaseImage({ docker: host.docker, progress: this.#log });
        return;
      }
      const imageId = await imageIdOn(source.docker, tag);
      if (!imageId) return;
      await this.#copyImage(imageId, source, host);
      await host.docker.getImage(imageId).tag({ repo: BASE_IMAGE_REPO, tag: tag.split(':')[1] });
      await host.docker.getImage(imageId).tag({ repo: BASE_IMAGE_REPO, tag: BASE_IMAGE_SUITE });
    })().catch((error: unknown) => {
      host.baseReady = undefined;
      throw error;
    });
    return host.baseReady;
  }

  async #hostWithImage(ref: string, except?: PoolHost): Promise<PoolHost | undefined> {
    for (const host of this.hosts) {
      if (host === except || !host.healthy) continue;
      if (await imageIdOn(host.docker, ref).catch(() => undefined)) return host;
    }
    return undefined;
  }

  // `imageId` on `host`: already there, or loaded from a host that has it, then checked by ID.
  async #ensureImage(host: PoolHost, imageId: string): Promise<void> {
    if ((await imageIdOn(host.docker, imageId)) === imageId) return;
    const source = await this.#hostWithImage(imageId, host);
    if (!source) throw new Error(`image ${imageId} is on no healthy Docker host; rebuild the environment`);
    await this.#copyImage(imageId, source, host);
  }

  #copyImage(imageId: string, from: PoolHost, to: PoolHost): Promise<void> {
    const key = `${to.spec.url}\0${imageId}`;
    let copy = this.#copies.get(key);
    if (!copy) {
      copy = (async () => {
        this.#log(`docker host ${to.spec.url}: loading ${imageId.slice(0, 19)} from ${from.spec.url}`);
        const saved = await from.docker.getImage(imageId).get();
        const loading = await to.docker.loadImage(saved);
        await new Promise<void>((resolve, reject) => to.docker.modem.followProgress(loading, (err: Error | null) => (err ? reject(err) : resolve())));
        const loadedId = await imageIdOn(to.docker, imageId);
        if (loadedId !== imageId) throw new Error(`docker host ${to.spec.url}: loaded image has ID ${loadedId ?? 'none'}, expected ${imageId}`);
      })().finally(() => this.#copies.delete(key));
      this.#copies.set(key, copy);
    }
    return copy;
  }

  buildEnvironmentImage(bundle: TaskBundle, opts?: BuildOptions): Promise<BuildResult> {
    return this.#place(async (host) => {
      await this.#ensureBase(host);
      return host.sandbox.buildEnvironmentImage(bundle, opts);
    });
  }

  runTrial(request: TrialRequest): Promise<TrialResult> {
    return this.#place(
      async (host) => {
        await this.#ensureImage(host, request.imageId);
        return host.sandbox.runTrial({ ...request, labels: { ...request.labels, 'envolve.host': host.spec.url } });
      },
      (result) => result.status === 'error',
    );
  }

  runChecks(request: ChecksRequest): Promise<ChecksResult> {
    return this.#place(async (host) => {
      await this.#ensureBase(host);
      if (request.imageId) await this.#ensureImage(host, request.imageId);
      return host.sandbox.runChecks(request);
    });
  }

  /** The reaper, per host; a host that does not answer is skipped (it is reaped once it is back). */
  async reapContainers(opts?: ReapOptions): Promise<ReapedContainer[]> {
    const perHost = await Promise.all(this.hosts.map((host) => (host.healthy ? host.sandbox.reapContainers(opts).catch(() => []) : [])));
    return perHost.flat();
  }
}

async function imageIdOn(docker: Docker, ref: string): Promise<string | undefined> {
  try {
    return (await docker.getImage(ref).inspect()).Id;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
