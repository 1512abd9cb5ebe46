// Every setting Envolve reads from its environment, in one place: each is named, typed, given
// its default and validated here, so a bad value stops a process at start with the setting
// named instead of surfacing as a wrong number in the middle of a run. `settings()` reads
// process.env once per process; `settingsFrom(env)` builds the same object from any string map
// (tests pass a plain object). The README's Configuration table documents each one.
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { DEFAULT_SCHEDULER_CONFIG, schedulerConfigSchema } from './scheduler-defaults.ts';
import { parseTrustedProxies } from './trusted-proxies.ts';
import { UnavailableError } from '../errors/index.ts';

export type Environment = Readonly<Record<string, string | undefined>>;

// An empty variable means unset, as a shell `FOO=` does.
const unsetIfBlank = (value: unknown) => (typeof value === 'string' ? value.trim() || undefined : value);
const setting = <T extends z.ZodType>(schema: T) => z.preprocess(unsetIfBlank, schema);

const wholeNumber = (min: number, max: number) => {
  const message = `expected a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^-?\d+$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));
};
const decimal = (min: number, max: number) => {
  const message = `expected a number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^-?(\d+\.?\d*|\.\d+)$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));
};
const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' });
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
// runc shares the host kernel; runsc is gVisor (see lib/sandbox/runtime.ts).
export const SANDBOX_RUNTIMES = ['runc', 'runsc'] as const;
// Images are built with the network by default, as Harbor builds them (see lib/sandbox/build-network.ts).
export const BUILD_NETWORKS = ['default', 'host', 'none'] as const;
const DAY_SECONDS = 24 * 3600;
// The largest timeout ceiling a deployment may set: a week, so every timer a trial arms from it
// (the phase budget plus its grace) stays far below the 2^31-1 ms a Node timer can hold.
const LONGEST_TIMEOUT_CEILING_SEC = 7 * DAY_SECONDS;
// Docker's smallest memory limit is 6 MiB and its smallest CPU share 0.01.
export const SMALLEST_MEMORY_MB = 6;
export const SMALLEST_CPUS = 0.01;
// Each build mirror's validation, shared by its ENVOLVE_BUILD_* setting and a lineage's override
// (lib/sandbox/build-mirrors.ts).
export const BUILD_MIRROR_FIELDS = {
  pipIndexUrl: httpUrl,
  pipFindLinks: z.string().min(1),
  goProxy: z.string().min(1),
  npmRegistry: httpUrl,
  httpProxy: httpUrl,
  httpsProxy: httpUrl,
  noProxy: z.string().min(1),
  caBundle: z.string().min(1),
};

// Keyed by the variable's name, so a validation problem names the variable.
const variables = z.object({
  DATABASE_URL: setting(
    z
      .string()
      .regex(/^(file:|postgres(ql)?:\/\/)/, 'expected file:PATH (SQLite) or postgresql://… (PostgreSQL)')
      .default('file:./data/envolve.db'),
  ),
  ENVOLVE_LOG_LEVEL: setting(z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` }).default('info')),
  ENVOLVE_LOG_FORMAT: setting(z.enum(['auto', 'json', 'pretty'], { error: 'expected auto, json or pretty' }).default('auto')),

  HOST: setting(z.string().default('127.0.0.1')),
  PORT: setting(wholeNumber(1, 65_535).default(3000)),
  BETTER_AUTH_URL: setting(httpUrl.optional()),
  BETTER_AUTH_SECRET: setting(z.string().optional()),
  ENVOLVE_TRUSTED_PROXIES: setting(z.string().optional()),
  ENVOLVE_SIGNIN_MAX_ATTEMPTS_PER_ACCOUNT: setting(wholeNumber(1, 1_000_000).default(5)),
  ENVOLVE_SIGNIN_MAX_ATTEMPTS_PER_ADDRESS: setting(wholeNumber(1, 1_000_000).default(20)),
  ENVOLVE_SIGNIN_WINDOW_SECONDS: setting(wholeNumber(1, DAY_SECONDS).default(15 * 60)),
  ENVOLVE_SIGNIN_LOCKOUT_SECONDS: setting(wholeNumber(1, DAY_SECONDS).default(60)),

  DOCKER_HOST: setting(z.string().optional()),
  ENVOLVE_WARM_POOL: setting(wholeNumber(0, 64).default(2)),
  ENVOLVE_BUILD_DIR: setting(z.string().optional()),
  ENVOLVE_SANDBOX_RUNTIME: setting(z.enum(SANDBOX_RUNTIMES, { error: `expected one of ${SANDBOX_RUNTIMES.join(', ')}` }).default('runc')),
  ENVOLVE_BUILD_NETWORK: setting(z.enum(BUILD_NETWORKS, { error: `expected one of ${BUILD_NETWORKS.join(', ')}` }).default('default')),
  // Package mirrors for image builds (lib/sandbox/build-mirrors.ts).
  ENVOLVE_BUILD_PIP_INDEX_URL: setting(BUILD_MIRROR_FIELDS.pipIndexUrl.optional()),
  ENVOLVE_BUILD_PIP_FIND_LINKS: setting(BUILD_MIRROR_FIELDS.pipFindLinks.optional()),
  ENVOLVE_BUILD_GOPROXY: setting(BUILD_MIRROR_FIELDS.goProxy.optional()),
  ENVOLVE_BUILD_NPM_REGISTRY: setting(BUILD_MIRROR_FIELDS.npmRegistry.optional()),
  ENVOLVE_BUILD_HTTP_PROXY: setting(BUILD_MIRROR_FIELDS.httpProxy.optional()),
  ENVOLVE_BUILD_HTTPS_PROXY: setting(BUILD_MIRROR_FIELDS.httpsProxy.optional()),
  ENVOLVE_BUILD_NO_PROXY: setting(BUILD_MIRROR_FIELDS.noProxy.optional()),
  ENVOLVE_BUILD_CA_BUNDLE: setting(BUILD_MIRROR_FIELDS.caBundle.optional()),
  // Deployment maxima of what a task.toml may ask for: a task asking more is warned at import and
  // runs with the ceiling, recorded on the run (lib/sandbox/ceilings.ts). A container cannot have
  // more CPUs than the machine has, so that is the CPU default.
  ENVOLVE_MAX_CPUS: setting(decimal(SMALLEST_CPUS, 1024).default(availableParallelism())),
  ENVOLVE_MAX_MEMORY_MB: setting(wholeNumber(SMALLEST_MEMORY_MB, 4_194_304).default(16_384)),
  ENVOLVE_MAX_STORAGE_MB: setting(wholeNumber(1, 4_194_304).default(20_480)),
  ENVOLVE_MAX_PIDS: setting(wholeNumber(64, 4_194_304).default(4_096)),
  ENVOLVE_MAX_AGENT_TIMEOUT_SEC: setting(wholeNumber(1, LONGEST_TIMEOUT_CEILING_SEC).default(DAY_SECONDS)),
  ENVOLVE_MAX_VERIFIER_TIMEOUT_SEC: setting(wholeNumber(1, LONGEST_TIMEOUT_CEILING_SEC).default(DAY_SECONDS)),
  ENVOLVE_MAX_BUILD_TIMEOUT_SEC: setting(wholeNumber(1, LONGEST_TIMEOUT_CEILING_SEC).default(DAY_SECONDS)),
  ENVOLVE_WORKER_CONCURRENCY: setting(wholeNumber(1, 256).default(2)),
  ENVOLVE_WORKER_LEASE_SEC: setting(decimal(0.001, DAY_SECONDS).default(60)),
  ENVOLVE_WORKER_REAP_SEC: setting(decimal(0.001, DAY_SECONDS).default(60)),

  ANTHROPIC_API_KEY: setting(z.string().optional()),
  ANTHROPIC_BASE_URL: setting(httpUrl.optional()),
  ENVOLVE_ANTHROPIC_MODEL: setting(z.string().optional()),
  ENVOLVE_ANTHROPIC_MAX_TOKENS: setting(wholeNumber(1, 1_000_000).optional()),
  ENVOLVE_ANTHROPIC_MAX_RETRIES: setting(wholeNumber(0, 100).optional()),
  ENVOLVE_POLICY_MODEL: setting(z.string().optional()),
  ENVOLVE_OPENAI_BASE_URL: setting(httpUrl.optional()),
  ENVOLVE_OPENAI_MODEL: setting(z.string().optional()),
  ENVOLVE_OPENAI_API_KEY: setting(z.string().optional()),

  ENVOLVE_PROBE_SIZE: setting(wholeNumber(1, 64).optional()),
  ENVOLVE_RELEASE_RATE: setting(decimal(0, 1).optional()),
  ENVOLVE_MIN_GROUP: setting(wholeNumber(1, 64).optional()),
  ENVOLVE_PROBE_CONCURRENCY: setting(wholeNumber(1, 32).optional()),
  ENVOLVE_PASS_THRESHOLD: setting(decimal(0, 1).optional()),
  ENVOLVE_PROBE_POLICY: setting(z.string().optional()),
  ENVOLVE_TIMEOUT_REWARD: setting(decimal(-1_000_000, 1_000_000).optional()),
  // How long a trainer may retry a group report with its Idempotency-Key and get the first answer.
  ENVOLVE_IDEMPOTENCY_TTL_HOURS: setting(decimal(0.001, 24 * 365).default(24)),

  ENVOLVE_ADMIN_EMAIL: setting(z.email({ error: 'expected an email address' }).optional()),
  ENVOLVE_ADMIN_PASSWORD: setting(z.string().optional()),

  ENVOLVE_TEST_DATABASE: setting(z.enum(['sqlite', 'postgresql'], { error: 'expected sqlite or postgresql' }).default('sqlite')),
  ENVOLVE_TEST_PG_URL: setting(z.string().default('postgresql://envolve:envolve@127.0.0.1:5432/envolve_test')),
});

type Variables = z.infer<typeof variables>;

// The scheduler's rule (minGroup ≤ probeSize, …) is checked with its own schema; its fields map back to variables.
const SCHEDULER_VARIABLES = {
  probeSize: 'ENVOLVE_PROBE_SIZE',
  releaseRate: 'ENVOLVE_RELEASE_RATE',
  minGroup: 'ENVOLVE_MIN_GROUP',
  probeConcurrency: 'ENVOLVE_PROBE_CONCURRENCY',
  passThreshold: 'ENVOLVE_PASS_THRESHOLD',
  probePolicy: 'ENVOLVE_PROBE_POLICY',
  timeoutReward: 'ENVOLVE_TIMEOUT_REWARD',
} as const;

function structure(v: Variables) {
  return {
    databaseUrl: v.DATABASE_URL,
    log: { level: v.ENVOLVE_LOG_LEVEL, format: v.ENVOLVE_LOG_FORMAT },
    web: {
      host: v.HOST,
      port: v.PORT,
      publicUrl: v.BETTER_AUTH_URL,
      authSecret: v.BETTER_AUTH_SECRET,
      trustedProxies: v.ENVOLVE_TRUSTED_PROXIES,
    },
    signIn: {
      maxAttemptsPerAccount: v.ENVOLVE_SIGNIN_MAX_ATTEMPTS_PER_ACCOUNT,
      maxAttemptsPerAddress: v.ENVOLVE_SIGNIN_MAX_ATTEMPTS_PER_ADDRESS,
      windowSeconds: v.ENVOLVE_SIGNIN_WINDOW_SECONDS,
      lockoutSeconds: v.ENVOLVE_SIGNIN_LOCKOUT_SECONDS,
    },
    sandbox: {
      dockerHost: v.DOCKER_HOST,
      warmPool: v.ENVOLVE_WARM_POOL,
      buildDir: v.ENVOLVE_BUILD_DIR,
      runtime: v.ENVOLVE_SANDBOX_RUNTIME,
      buildNetwork: v.ENVOLVE_BUILD_NETWORK,
      ceilings: {
        cpus: v.ENVOLVE_MAX_CPUS,
        memoryMb: v.ENVOLVE_MAX_MEMORY_MB,
        storageMb: v.ENVOLVE_MAX_STORAGE_MB,
        pids: v.ENVOLVE_MAX_PIDS,
        agentTimeoutSec: v.ENVOLVE_MAX_AGENT_TIMEOUT_SEC,
        verifierTimeoutSec: v.ENVOLVE_MAX_VERIFIER_TIMEOUT_SEC,
        buildTimeoutSec: v.ENVOLVE_MAX_BUILD_TIMEOUT_SEC,
      },
      mirrors: {
        pipIndexUrl: v.ENVOLVE_BUILD_PIP_INDEX_URL,
        pipFindLinks: v.ENVOLVE_BUILD_PIP_FIND_LINKS,
        goProxy: v.ENVOLVE_BUILD_GOPROXY,
        npmRegistry: v.ENVOLVE_BUILD_NPM_REGISTRY,
        httpProxy: v.ENVOLVE_BUILD_HTTP_PROXY,
        httpsProxy: v.ENVOLVE_BUILD_HTTPS_PROXY,
        noProxy: v.ENVOLVE_BUILD_NO_PROXY,
        caBundle: v.ENVOLVE_BUILD_CA_BUNDLE,
      },
    },
    worker: { concurrency: v.ENVOLVE_WORKER_CONCURRENCY, leaseMs: v.ENVOLVE_WORKER_LEASE_SEC * 1000, reapIntervalMs: v.ENVOLVE_WORKER_REAP_SEC * 1000 },
    anthropic: {
      apiKey: v.ANTHROPIC_API_KEY,
      baseUrl: v.ANTHROPIC_BASE_URL,
      model: v.ENVOLVE_ANTHROPIC_MODEL,
      maxTokens: v.ENVOLVE_ANTHROPIC_MAX_TOKENS,
      maxRetries: v.ENVOLVE_ANTHROPIC_MAX_RETRIES,
      policyModel: v.ENVOLVE_POLICY_MODEL,
    },
    openai: { baseUrl: v.ENVOLVE_OPENAI_BASE_URL, model: v.ENVOLVE_OPENAI_MODEL, apiKey: v.ENVOLVE_OPENAI_API_KEY },
    // Only what is set: the scheduler's defaults and a command's overrides fill the rest.
    scheduler: {
      probeSize: v.ENVOLVE_PROBE_SIZE,
      releaseRate: v.ENVOLVE_RELEASE_RATE,
      minGroup: v.ENVOLVE_MIN_GROUP,
      probeConcurrency: v.ENVOLVE_PROBE_CONCURRENCY,
      passThreshold: v.ENVOLVE_PASS_THRESHOLD,
      probePolicy: v.ENVOLVE_PROBE_POLICY,
      timeoutReward: v.ENVOLVE_TIMEOUT_REWARD,
    },
    trainer: { idempotencyTtlMs: v.ENVOLVE_IDEMPOTENCY_TTL_HOURS * 3600 * 1000 },
    admin: { email: v.ENVOLVE_ADMIN_EMAIL, password: v.ENVOLVE_ADMIN_PASSWORD },
    test: { database: v.ENVOLVE_TEST_DATABASE, postgresUrl: v.ENVOLVE_TEST_PG_URL },
  };
}

export type Settings = Readonly<ReturnType<typeof structure>>;

/** The deployment's resource maxima (ENVOLVE_MAX_*): what a trial gets at most, whatever its task.toml asks. */
export type ResourceCeilings = Settings['sandbox']['ceilings'];
export type ResourceName = keyof ResourceCeilings;

/** Each ceiling's variable, so a message about a ceiling names the setting that raises it. */
export const CEILING_SETTINGS: Readonly<Record<ResourceName, string>> = {
  cpus: 'ENVOLVE_MAX_CPUS',
  memoryMb: 'ENVOLVE_MAX_MEMORY_MB',
  storageMb: 'ENVOLVE_MAX_STORAGE_MB',
  pids: 'ENVOLVE_MAX_PIDS',
  agentTimeoutSec: 'ENVOLVE_MAX_AGENT_TIMEOUT_SEC',
  verifierTimeoutSec: 'ENVOLVE_MAX_VERIFIER_TIMEOUT_SEC',
  buildTimeoutSec: 'ENVOLVE_MAX_BUILD_TIMEOUT_SEC',
};

export class SettingsError extends UnavailableError {
  constructor(readonly problems: string[]) {
    super(`invalid settings:\n${problems.map((p) => `  ${p}`).join('\n')}`, { code: 'invalid_settings', details: { problems } });
  }
}

const SECRET = /KEY|SECRET|PASSWORD|DATABASE_URL|PG_URL/;

function problem(env: Environment, name: string, message: string): string {
  const raw = env[name];
  const shown = raw === undefined || SECRET.test(name) ? '' : ` (got ${JSON.stringify(raw)})`;
  return `${name}: ${message}${shown}`;
}

function crossChecks(env: Environment, s: Settings): string[] {
  const problems: string[] = [];
  try {
    parseTrustedProxies(s.web.trustedProxies);
  } catch (err) {
    problems.push(problem(env, 'ENVOLVE_TRUSTED_PROXIES', (err as Error).message.replace(/^ENVOLVE_TRUSTED_PROXIES: /, '')));
  }
  const setOnly = Object.fromEntries(Object.entries(s.scheduler).filter(([, value]) => value !== undefined));
  const scheduler = schedulerConfigSchema.safeParse({ ...DEFAULT_SCHEDULER_CONFIG, ...setOnly });
  for (const issue of scheduler.error?.issues ?? []) {
    const field = String(issue.path[0]) as keyof typeof SCHEDULER_VARIABLES;
    problems.push(problem(env, SCHEDULER_VARIABLES[field] ?? field, issue.message));
  }
  return problems;
}

/** The settings a given environment describes; throws SettingsError naming every bad variable. */
export function settingsFrom(env: Environment): Settings {
  const parsed = variables.safeParse(env);
  if (!parsed.success) throw new SettingsError(parsed.error.issues.map((issue) => problem(env, String(issue.path[0]), issue.message)));
  const built = structure(parsed.data);
  const problems = crossChecks(env, built);
  if (problems.length > 0) throw new SettingsError(problems);
  return built;
}

let fromProcess: Settings | undefined;

/** This process's settings, read from its environment on first use. */
export function settings(): Settings {
  // The one read of the process environment outside build-tool configuration.
  fromProcess ??= settingsFrom(process.env);
  return fromProcess;
}
