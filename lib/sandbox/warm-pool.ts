// A warm pool of trial containers: created and started ahead of demand, so that a trial begins
// with its first exec instead of a create + start (about 0.5 s on these machines). Every trial
// still gets a fresh container that nothing ran in before: a pooled container is handed out once
// and removed after its trial, off the critical path, and the pool makes a new one behind it.
//
// The pool is per container configuration (image, limits, task label), fills only for
// configurations asked for more than `size` times (a one-off validation of a new image, two
// trials, earns none; a probe's rollouts or repeated validations do), keeps `size` ready for the
// few most recently used ones, and throws idle containers away after a while. Pooled containers
// carry envolve.managed, envolve.expires and envolve.owner like every trial container (so the
// reaper takes them once this process is gone) and envolve.pool=<this pool's id>; a process that stops on a
// signal drains its pool (drainAllWarmPools), and the next pool on the same host sweeps the pooled
// containers of owners that died without draining.
import type Docker from 'dockerode';
import { randomUUID } from 'node:crypto';
import { settings } from '../config/index.ts';
import { OWNER_LABEL, POOL_LABEL, ownerLabel, ownerState } from './owner.ts';

// A container outlives its trial's budgets by at most this before the reaper may take it.
export const EXPIRY_MARGIN_SEC = 600;
// Labels cannot change after creation, so a pooled container's expiry has to cover its idle time
// and the budget of the trial it will serve; a trial whose budget does not fit gets a fresh one.
const POOLED_EXPIRY_SEC = 3600;
const IDLE_MAX_SEC = 900;
const MAX_CONFIGS = 4;
const PRUNE_INTERVAL_MS = 60_000;

export interface TakeRequest {
  // The trial container's configuration, without the trial's own labels and expiry.
  options: Docker.ContainerCreateOptions;
  // This trial's labels (job lease, rollout, validator): only a container made for it can carry them.
  labels: Record<string, string>;
  budgetSec: number; // agent + verifier budgets
  fresh?: boolean; // created for this trial only, never pooled (e.g. on a per-trial network)
}

export interface TakenContainer {
  container: Docker.Container;
  warm: boolean; // came from the pool (already started)
}

interface ReadyContainer {
  container: Docker.Container;
  createdAt: number; // epoch seconds
  expiresAt: number;
}

interface ConfigPool {
  key: string;
  options: Docker.ContainerCreateOptions;
  ready: ReadyContainer[];
  filling: number;
  demand: number; // takes so far
  lastUsed: number;
}

export interface WarmPoolStats {
  hits: number;
  misses: number;
  ready: number;
  pendingRemovals: number;
}

const nowSec = () => Date.now() / 1000;

export class WarmPool {
  readonly owner = ownerLabel();
  readonly id = randomUUID();
  readonly #configs = new Map<string, ConfigPool>();
  readonly #pending = new Set<Promise<void>>();
  #closed = false;
  #swept = false;
  #timer: NodeJS.Timeout | undefined;
  #hits = 0;
  #misses = 0;

  constructor(
    readonly docker: Docker,
    readonly size: number,
    private readonly now: () => number = nowSec,
  ) {}

  async take(request: TakeRequest): Promise<TakenContainer> {
    if (this.size === 0 || this.#closed || request.fresh) return { container: await this.#createFresh(request), warm: false };
    this.#startHousekeeping();
    const key = JSON.stringify(request.options);
    const pool = this.#configs.get(key) ?? this.#addConfig(key, request.options);
    pool.lastUsed = this.now();
    pool.demand += 1;
    const neededUntil = this.now() + request.budgetSec + EXPIRY_MARGIN_SEC;
    let ready = pool.ready.shift();
    while (ready && ready.expiresAt < neededUntil) {
      this.retire(ready.container);
      ready = pool.ready.shift();
    }
    if (ready) {
      this.#hits += 1;
      return { container: ready.container, warm: true };
    }
    this.#misses += 1;
    return { container: await this.#createFresh(request), warm: false };
  }

  /**
   * Removes a container in the background; drain() waits for it. The pool refills only then: a
   * refill started when a container is taken competed with the very trial it was taken for
   * (setup took 3× longer with the pool warm than without, bench/sandbox-overhead.ts).
   */
  retire(container: Docker.Container): void {
    const removal: Promise<void> = container
      .remove({ force: true })
      .catch(() => undefined)
      .then(() => {
        for (const pool of this.#configs.values()) this.#fill(pool);
        this.#pending.delete(removal);
      });
    this.#pending.add(removal);
  }

  /** Stops refilling, removes every ready container and waits for every pending removal. */
  async drain(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    for (const pool of this.#configs.values()) this.#dropConfig(pool);
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  stats(): WarmPoolStats {
    let ready = 0;
    for (const pool of this.#configs.values()) ready += pool.ready.length;
    return { hits: this.#hits, misses: this.#misses, ready, pendingRemovals: this.#pending.size };
  }

  /** Resolves once pending removals are done and the refills they started have ended (ready, or failed). */
  async whenFilled(): Promise<void> {
    while (this.#pending.size > 0 || [...this.#configs.values()].some((pool) => pool.filling > 0)) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  async #createFresh(request: TakeRequest): Promise<Docker.Container> {
    const expires = Math.floor(this.now() + request.budgetSec + EXPIRY_MARGIN_SEC);
    return this.#createStarted(request.options, { ...request.labels, 'envolve.expires': String(expires) });
  }

  async #createStarted(options: Docker.ContainerCreateOptions, labels: Record<string, string>): Promise<Docker.Container> {
    const container = await this.docker.createContainer({ ...options, Labels: { ...options.Labels, ...labels, [OWNER_LABEL]: this.owner } });
    try {
      await container.start();
    } catch (err) {
      this.retire(container);
      throw err;
    }
    return container;
  }

  #addConfig(key: string, options: Docker.ContainerCreateOptions): ConfigPool {
    const pool: ConfigPool = { key, options, ready: [], filling: 0, demand: 0, lastUsed: this.now() };
    this.#configs.set(key, pool);
    if (this.#configs.size > MAX_CONFIGS) {
      const oldest = [...this.#configs.values()].reduce((a, b) => (b.lastUsed < a.lastUsed ? b : a));
      this.#dropConfig(oldest);
    }
    return pool;
  }

  #dropConfig(pool: ConfigPool): void {
    this.#configs.delete(pool.key);
    for (const ready of pool.ready.splice(0)) this.retire(ready.container);
  }

  // One container at a time per configuration: the pool should not compete with running trials
  // for the daemon more than it must.
  #fill(pool: ConfigPool): void {
    if (this.#closed || pool.demand <= this.size || pool.filling > 0 || pool.ready.length >= this.size) return;
    pool.filling += 1;
    const createdAt = this.now();
    const expiresAt = Math.floor(createdAt + POOLED_EXPIRY_SEC);
    this.#createStarted(pool.options, { [POOL_LABEL]: this.id, 'envolve.expires': String(expiresAt) }).then(
      (container) => {
        pool.filling -= 1;
        if (this.#closed || this.#configs.get(pool.key) !== pool) return this.retire(container);
        pool.ready.push({ container, createdAt, expiresAt });
        this.#fill(pool);
      },
      // A failed fill (image gone, daemon busy) is not retried until the next take asks again.
      () => void (pool.filling -= 1),
    );
  }

  #startHousekeeping(): void {
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#prune(), PRUNE_INTERVAL_MS);
      this.#timer.unref();
    }
    if (!this.#swept) {
      this.#swept = true;
      void this.#sweepDeadOwners().catch(() => undefined);
    }
  }

  // Idle containers are thrown away rather than kept for a demand that has moved on.
  #prune(): void {
    const now = this.now();
    for (const pool of [...this.#configs.values()]) {
      if (now - pool.lastUsed > IDLE_MAX_SEC) {
        this.#dropConfig(pool);
        continue;
      }
      const stale = pool.ready.filter((r) => now - r.createdAt > IDLE_MAX_SEC);
      pool.ready = pool.ready.filter((r) => !stale.includes(r));
      for (const r of stale) this.retire(r.container);
      this.#fill(pool);
    }
  }

  // Pooled containers of a process that no longer exists: it died without draining its pool.
  async #sweepDeadOwners(): Promise<void> {
    const pooled = await this.docker.listContainers({ all: true, filters: { label: [POOL_LABEL] } });
    for (const info of pooled) if (ownerState(info.Labels) === 'gone') this.retire(this.docker.getContainer(info.Id));
  }
}

// One pool per Docker engine connection, drained when the process runs out of work.
const pools = new WeakMap<Docker, WarmPool>();
const live = new Set<WarmPool>();
let drainOnExit = false;

// `size` applies when this connection's pool is first made (default: ENVOLVE_WARM_POOL).
export function warmPoolFor(docker: Docker, size?: number): WarmPool {
  let pool = pools.get(docker);
  if (!pool) {
    pool = new WarmPool(docker, size ?? settings().sandbox.warmPool);
    pools.set(docker, pool);
    live.add(pool);
    if (!drainOnExit) {
      drainOnExit = true;
      // beforeExit lets asynchronous work run; once drained the loop empties and the process exits.
      process.once('beforeExit', () => void drainAllWarmPools());
    }
  }
  return pool;
}

// Idempotent: a drained pool hands out fresh containers only, and a later call waits for their removals.
export async function drainAllWarmPools(): Promise<void> {
  await Promise.all([...live].map((pool) => pool.drain()));
}
