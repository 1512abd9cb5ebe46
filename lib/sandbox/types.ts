// The sandbox contract: build a task's environment image, run one trial
// (agent phase, then verifier phase) in it, and clean up after crashed workers.
import type { TaskBundle } from '../bundle/index.ts';
import type { BaseImageMapping } from './base-image-map.ts';
import type { BuildNetwork, BuildNetworkUsed } from './build-network.ts';
import type { MirrorsSource, ResolvedBuildMirrors } from './build-mirrors.ts';
import type { ChecksRequest, ChecksResult } from './run-checks.ts';
import type { ResourceUses } from './ceilings.ts';
import type { SandboxRuntime } from './runtime.ts';

export interface BuildOptions {
  // Which local image stands in for a FROM this machine lacks (see base-image-map.ts).
  baseImages?: BaseImageMapping;
  network?: BuildNetwork; // default: the ENVOLVE_BUILD_NETWORK setting
  mirrors?: ResolvedBuildMirrors; // default: the ENVOLVE_BUILD_* mirror settings
  timeoutSec?: number; // the task's [environment] build_timeout_sec
}

// A FROM reference this machine lacks, and the local image the build used instead.
export interface MappedImage {
  from: string;
  to: string;
  imageId: string;
}

// How a build was made, kept whether it succeeded or not.
export interface BuildAttempt {
  tag: string; // envolve/env:<hash of environment/ files + base image IDs>
  durationMs: number;
  network: BuildNetworkUsed;
  mapped: MappedImage[];
  mirrors: Record<string, string>; // the mirror settings the build ran with, by setting name
  mirrorsSource: MirrorsSource; // the deployment's settings or the lineage's own
}

export interface BuildResult extends BuildAttempt {
  imageId: string; // sha256:…; trials run on this, not on the tag
  cached: boolean;
}

export type AgentSpec =
  | { kind: 'oracle' } // runs solution/solve.sh from /solution
  | { kind: 'nop' } // does nothing: tasks must score 0 with it
  | { kind: 'script'; script: string } // a bash script, run like an agent
  | InteractiveAgent;

// An agent that acts turn by turn: each command it runs is one exec in the trial container, as
// the image's user, within the phase's wall-clock budget (the signal aborts when it is spent).
export interface InteractiveAgent {
  kind: 'interactive';
  drive(terminal: ShellTerminal, signal: AbortSignal): Promise<void>;
  commandTimeoutSec?: number; // default for a command that names none; default 600
  maxOutputBytes?: number; // per command; default 1 MiB (head and tail kept, the cut marked)
  copySolution?: boolean; // put solution/ at /solution first (oracle-like policies only)
}

// One command run in the container, and what came back.
export interface ShellResult {
  output: string; // stdout and stderr as they interleaved, whole up to maxOutputBytes
  outputTruncated?: boolean; // the middle of a larger output was cut (the output says where)
  exitCode: number | null; // null when the command was killed (its timeout, or the wall-clock budget)
  durationMs: number;
  timedOut: boolean;
}

// Commands run in a fresh bash each; the working directory carries over from one to the next.
export interface ShellTerminal {
  run(command: string, opts?: { timeoutSec?: number }): Promise<ShellResult>;
}

export interface Limits {
  cpus: number;
  memoryMb: number; // swap is capped to the same value: no extra swap
  pids: number;
  tmpfsMb: number; // size of the writable /tmp
  fileSizeMb: number; // RLIMIT_FSIZE: the largest file a process may write
  nofile: number;
}

export interface TrialRequest {
  bundle: TaskBundle;
  imageId: string;
  agent: AgentSpec;
  limits?: Partial<Limits>;
  runtime?: SandboxRuntime; // the lineage's choice; default ENVOLVE_SANDBOX_RUNTIME (the bundle's task.toml may require runsc)
  agentTimeoutSec: number;
  verifierTimeoutSec: number;
  // What the task asked for and what this trial gets, within the deployment's ceilings; kept in
  // the trial's containment record. The limits and timeouts above are the values used.
  resources?: ResourceUses;
  timeoutReward?: number; // the reward a timed-out trial gets; default 0
  labels?: Record<string, string>; // e.g. job and worker ids, added to the container
  // Return the regular files the agent created or changed under these directories (read after
  // the agent phase, before the tests are copied in). Off unless given.
  captureOutputs?: CaptureRequest;
  // A multi-container task's per-trial internal network (no egress): the trial container joins it
  // under these aliases instead of having no network. Set by the compose runner, never pooled.
  network?: { name: string; aliases: string[] };
}

export interface CaptureRequest {
  dirs?: string[]; // absolute; default: the image's WORKDIR
  // Read these instead when the WORKDIR is / (reading the whole filesystem twice is slow).
  dirsWhenWorkdirIsRoot?: string[];
  maxBytes?: number; // total content returned; default 5 MiB
}

export interface CapturedFile {
  path: string; // absolute, in the container
  content: Buffer;
}

export interface CapturedOutputs {
  files: CapturedFile[]; // sorted by path
  truncated: boolean; // some changed files were left out to stay within maxBytes
}

export interface PhaseResult {
  exitCode: number | null; // null when the phase was killed or never finished
  durationMs: number;
  timedOut: boolean;
  log: string; // stdout and stderr as they interleaved, capped per phase
  logTruncated: boolean;
  containerStopped?: boolean; // the container stopped while the phase ran (not by its timeout)
}

export interface Containment {
  runtime: SandboxRuntime; // runc (host kernel) or runsc (gVisor's user-space kernel)
  networkMode: string;
  oomKilled: boolean; // the kernel killed a process for exceeding the memory limit
  pidsLimitReached: boolean; // a fork failed because of the pids limit
  killedBySigkill: boolean; // a phase ended with exit code 137
  restartedBeforeVerifier: boolean; // agent leftovers could only be stopped by a restart
  leftoverProcesses: number; // processes the agent left running when its phase ended, killed before the verifier
  containerStopped: boolean; // the container stopped during a phase, not by a timeout (e.g. gVisor's sandbox killed at its memory limit)
  limits: Limits;
  resources?: ResourceUses; // per resource: asked by the task, used by the trial, the deployment's ceiling
}

export type TrialStatus = 'completed' | 'timed-out' | 'reward-missing' | 'error';

export interface TrialResult {
  status: TrialStatus;
  reward: number | null; // null unless completed or timed-out
  rewardDetail?: Record<string, number>; // from reward.json
  ctrf?: unknown; // /logs/verifier/ctrf.json when the tests wrote one
  timedOut: boolean;
  timedOutPhase?: 'agent' | 'verifier';
  imageId: string;
  runtime: SandboxRuntime; // the OCI runtime the trial ran under
  containerId?: string;
  agent: PhaseResult;
  verifier: PhaseResult | null; // null when the verifier did not run
  error?: string;
  containment: Containment;
  outputs?: CapturedOutputs; // when the request asked for captureOutputs and the agent phase ended
  // The agent left files in /logs/verifier or a /tests directory (both are discarded before the
  // verifier runs): evidence of an attempt to write the reward or read the tests.
  protectedPathsTouched?: boolean;
  // Milliseconds of the trial's critical path by step (image-config, container, setup, agent, ...).
  phaseMs?: Record<string, number>;
}

// expired: its envolve.expires passed; owner-gone: the process that made it no longer exists;
// lease-lost: the job it ran for is no longer held by the worker that started it.
export type ReapReason = 'expired' | 'owner-gone' | 'lease-lost';

export interface ReapedContainer {
  id: string;
  name: string;
  expiredAt: number; // epoch seconds from the envolve.expires label
  reason: ReapReason;
  labels: Record<string, string>;
}

export interface ReapOptions {
  now?: Date;
  // Whether the job lease a container was started under (its envolve.job and envolve.lease labels)
  // is still held; a container whose lease is gone is an orphan of a killed worker, reaped at once.
  leaseHeld?: (labels: Record<string, string>) => Promise<boolean>;
}

export interface Sandbox {
  buildEnvironmentImage(bundle: TaskBundle, opts?: BuildOptions): Promise<BuildResult>;
  runTrial(request: TrialRequest): Promise<TrialResult>;
  reapContainers(opts?: ReapOptions): Promise<ReapedContainer[]>;
  // Shell predicates (rubric checks) over a file set, in one throwaway container.
  runChecks(request: ChecksRequest): Promise<ChecksResult>;
}
