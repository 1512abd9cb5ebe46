// Runs many small shell checks (rubric predicates) against one set of files in one
// fresh container: the files are copied read-only to /bundle, each check is an exec
// as the unprivileged user `agent` with its own time budget, and the container is
// removed afterwards. A check that overruns restarts the container (the only way to
// be sure its processes are gone) and the check runs once more with a larger budget: running out
// of time says more about a loaded machine than about the files, so one overrun is no verdict.
import type Docker from 'dockerode';
import type { BundleFile } from '../bundle/index.ts';
import { ensureBaseImage } from './base-image.ts';
import { CappedLog } from './capped-log.ts';
import { runPhase } from './exec.ts';
import { hostConfigFor, resolveLimits } from './resource-limits.ts';
import { OWNER_LABEL, ownerLabel } from './owner.ts';
import { assertRuntimeRegistered, sandboxRuntimeFor, type SandboxRuntime } from './runtime.ts';
import { packTar } from '../bundle/index.ts';
import type { Limits } from './types.ts';

export const BUNDLE_MOUNT = '/bundle';
export const DEFAULT_CHECK_TIMEOUT_SEC = 20;
export const DEFAULT_CHECK_OUTPUT_BYTES = 16 * 1024;

// A container outlives its budgets by at most this before the reaper may take it.
const EXPIRY_MARGIN_SEC = 600;
// Per check on top of its budgets: a restart after a timeout, exec start-up.
const PER_CHECK_SLACK_SEC = 15;
// A check that overran its budget runs once more with this many times the budget.
export const RETRY_BUDGET_FACTOR = 3;

export interface CheckSpec {
  id: string; // the caller's name for the check (e.g. a rubric item id)
  script: string; // bash source; exit 0 = passes
}

export interface ChecksRequest {
  files: BundleFile[]; // placed under /bundle, owned by root, not writable by the checks
  checks: CheckSpec[];
  imageId?: string; // default: the local base image
  timeoutSec?: number; // per check
  outputBytes?: number; // per check, head and tail kept
  limits?: Partial<Limits>;
  labels?: Record<string, string>;
  runtime?: SandboxRuntime; // the lineage's choice; default ENVOLVE_SANDBOX_RUNTIME (the files' task.toml may require runsc)
}

export interface CheckResult {
  id: string;
  exitCode: number | null; // null when the check timed out or could not run
  output: string; // stdout and stderr as they interleaved, capped
  timedOut: boolean; // it overran its budget, and then the larger budget of its one retry
  durationMs: number; // of the run that counted (the retry's, when there was one)
  retriedAfterSec?: number; // set when the first run overran this budget and the check ran again
  error?: string; // the check could not be run at all
}

export interface ChecksResult {
  imageId: string;
  runtime: SandboxRuntime;
  results: CheckResult[]; // in the order of the request's checks
  durationMs: number;
}

// The longest `count` checks may take: each overruns its budget, restarts, and overruns its retry's.
export function checksWorstCaseSec(count: number, timeoutSec = DEFAULT_CHECK_TIMEOUT_SEC): number {
  return count * (timeoutSec * (1 + RETRY_BUDGET_FACTOR) + 2 * PER_CHECK_SLACK_SEC);
}

function createChecksContainer(docker: Docker, req: ChecksRequest, imageId: string, limits: Limits, runtime: SandboxRuntime, timeoutSec: number) {
  const expires = Math.floor(Date.now() / 1000) + checksWorstCaseSec(req.checks.length, timeoutSec) + EXPIRY_MARGIN_SEC;
  return docker.createContainer({
    Image: imageId,
    Entrypoint: ['sleep'],
    Cmd: ['infinity'],
    User: 'agent',
    WorkingDir: BUNDLE_MOUNT,
    NetworkDisabled: true,
    Labels: { ...req.labels, 'envolve.managed': '1', 'envolve.expires': String(expires), 'envolve.purpose': 'checks', [OWNER_LABEL]: ownerLabel() },
    // Checks only read files: they keep none of the capabilities a trial keeps.
    HostConfig: { ...hostConfigFor(limits, runtime), CapAdd: [] },
  });
}

// Copied before start, so no check can ever see a half-written bundle.
async function startWithFiles(container: Docker.Container, files: BundleFile[]): Promise<void> {
  const entries = files.map((f) => ({ ...f, path: `${BUNDLE_MOUNT.slice(1)}/${f.path}` }));
  await container.putArchive(packTar(entries), { path: '/' });
  await container.start();
}

function capped(text: string, bytes: number): string {
  const log = new CappedLog(bytes);
  log.write(Buffer.from(text));
  return log.toString();
}

async function runCheckOnce(container: Docker.Container, check: CheckSpec, timeoutSec: number, outputBytes: number): Promise<CheckResult> {
  const started = Date.now();
  let restarted: Promise<unknown> | undefined;
  try {
    const phase = await runPhase(container, {
      cmd: ['bash', '-c', check.script],
      user: 'agent',
      workingDir: BUNDLE_MOUNT,
      timeoutSec,
      onTimeout: () => (restarted = container.restart({ t: 0 })),
    });
    // The exec's stream ends when the restart kills it, before the container runs again.
    if (restarted) await restarted;
    return { id: check.id, exitCode: phase.exitCode, output: capped(phase.log, outputBytes), timedOut: phase.timedOut, durationMs: phase.durationMs };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    return { id: check.id, exitCode: null, output: '', timedOut: false, durationMs: Date.now() - started, error };
  }
}

async function runOneCheck(container: Docker.Container, check: CheckSpec, timeoutSec: number, outputBytes: number): Promise<CheckResult> {
  const first = await runCheckOnce(container, check, timeoutSec, outputBytes);
  if (!first.timedOut) return first;
  const retry = await runCheckOnce(container, check, timeoutSec * RETRY_BUDGET_FACTOR, outputBytes);
  return { ...retry, retriedAfterSec: timeoutSec };
}

export async function runChecks(docker: Docker, req: ChecksRequest): Promise<ChecksResult> {
  const started = Date.now();
  const imageId = req.imageId ?? (await ensureBaseImage({ docker })).imageId;
  const { runtime } = sandboxRuntimeFor(req.runtime, req.files);
  if (req.checks.length === 0) return { imageId, runtime, results: [], durationMs: 0 };
  const timeoutSec = req.timeoutSec ?? DEFAULT_CHECK_TIMEOUT_SEC;
  const outputBytes = req.outputBytes ?? DEFAULT_CHECK_OUTPUT_BYTES;
  await assertRuntimeRegistered(docker, runtime);
  const container = await createChecksContainer(docker, req, imageId, resolveLimits(req.limits), runtime, timeoutSec);
  try {
    await startWithFiles(container, req.files);
    const results: CheckResult[] = [];
    for (const check of req.checks) {
      results.push(await runOneCheck(container, check, timeoutSec, outputBytes));
    }
    return { imageId, runtime, results, durationMs: Date.now() - started };
  } finally {
    await container.remove({ force: true }).catch(() => undefined);
  }
}
