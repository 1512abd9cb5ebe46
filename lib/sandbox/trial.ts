// One trial, in Harbor's phase order, in one container: the agent works first; only after it
// has finished (and every process it left is killed) are the tests sent in and run as root, and
// the reward file read. It all happens in one session with the container's main process
// (session.ts, trial-script.ts, driven by trial-phases.ts): no exec, unless the agent is
// interactive (each of its commands is one).
import type Docker from 'dockerode';
import { bundleDirTar, readContainerFile } from './container-files.ts';
import { countersIn, mergeCounters, NO_COUNTERS, type CgroupCounters } from './containment.ts';
import { hostConfigFor, resolveLimits } from './resource-limits.ts';
import { PhaseClock } from './phase-clock.ts';
import { assertRuntimeRegistered, sandboxRuntimeFor, type SandboxRuntime } from './runtime.ts';
import { NO_CONTAINER_LOG, SUPERVISED_MAIN_PROCESS, type ControlLine } from './session.ts';
import { TrialPhases, watchForStop, type TrialState } from './trial-phases.ts';
import { parseRewardJson, parseRewardTxt, type ParsedReward } from './reward.ts';
import { filesIn } from '../bundle/index.ts';
import type { AgentSpec, Containment, Limits, PhaseResult, TrialRequest, TrialResult } from './types.ts';
import { warmPoolFor } from './warm-pool.ts';

// How long a stopped container's inspect may take to record an OOM kill of its main process.
const STOP_RECORD_MS = 5000;

const NOTHING_RAN: PhaseResult = { exitCode: null, durationMs: 0, timedOut: false, log: '', logTruncated: false };

const usesSolution = (agent: AgentSpec): boolean => agent.kind === 'oracle' || (agent.kind === 'interactive' && agent.copySolution === true);

function captureDirsFor(capture: NonNullable<TrialRequest['captureOutputs']>, workingDir: string): string[] {
  if (capture.dirs) return capture.dirs;
  if (workingDir === '/' && capture.dirsWhenWorkdirIsRoot) return capture.dirsWhenWorkdirIsRoot;
  return [workingDir];
}

function agentCommand(agent: AgentSpec): string[] | null {
  if (agent.kind === 'oracle') return ['bash', '/solution/solve.sh'];
  if (agent.kind === 'script') return ['bash', '-c', agent.script];
  return null;
}

// A fresh container, from the warm pool when one is ready; the pool adds envolve.expires and the
// trial's own labels (or, for a pooled container, its owner).
async function takeTrialContainer(docker: Docker, req: TrialRequest, limits: Limits, runtime: SandboxRuntime): Promise<Docker.Container> {
  const hostConfig = { ...hostConfigFor(limits, runtime), LogConfig: NO_CONTAINER_LOG };
  const options: Docker.ContainerCreateOptions = {
    Image: req.imageId,
    // The main process is the session's supervisor; it runs as root even when the image sets
    // USER: Docker gives root processes no capabilities at all in a container whose main
    // process is non-root, and the verifier and the clean-up need theirs.
    ...SUPERVISED_MAIN_PROCESS,
    User: '0',
    NetworkDisabled: !req.network,
    Labels: { 'envolve.managed': '1', 'envolve.task': req.bundle.name },
    HostConfig: req.network ? { ...hostConfig, NetworkMode: req.network.name } : hostConfig,
    ...(req.network ? { NetworkingConfig: { EndpointsConfig: { [req.network.name]: { Aliases: req.network.aliases } } } } : {}),
  };
  const budgetSec = req.agentTimeoutSec + req.verifierTimeoutSec;
  const taken = await warmPoolFor(docker).take({ options, labels: req.labels ?? {}, budgetSec, fresh: Boolean(req.network) });
  return taken.container;
}

// Image IDs are content addresses: the configuration behind one never changes.
const imageConfigs = new Map<string, Promise<{ user: string; workingDir: string }>>();
function imageConfig(docker: Docker, imageId: string): Promise<{ user: string; workingDir: string }> {
  let config = imageConfigs.get(imageId);
  if (!config) {
    config = docker
      .getImage(imageId)
      .inspect()
      .then((image) => ({ user: image.Config.User || 'root', workingDir: image.Config.WorkingDir || '/' }));
    config.catch(() => imageConfigs.delete(imageId));
    imageConfigs.set(imageId, config);
  }
  return config;
}

type VerifierFiles = Partial<Record<'reward.txt' | 'reward.json' | 'ctrf.json', Buffer>>;

function rewardOf(files: VerifierFiles): ParsedReward {
  const txt = files['reward.txt'];
  if (txt !== undefined) return parseRewardTxt(txt.toString('utf8'));
  const json = files['reward.json'];
  if (json !== undefined) return parseRewardJson(json.toString('utf8'));
  return { ok: false, problem: 'the verifier wrote neither /logs/verifier/reward.txt nor reward.json' };
}

function ctrfOf(files: VerifierFiles): unknown {
  const ctrf = files['ctrf.json'];
  if (ctrf === undefined) return undefined;
  try {
    return JSON.parse(ctrf.toString('utf8'));
  } catch {
    return { unparsable: ctrf.toString('utf8').slice(0, 4096) };
  }
}

// The result files as the session sent them (a base64 tar), or, when the session could not get
// that far (the container stopped), read from the container's filesystem by the engine.
async function verifierFiles(container: Docker.Container, results: ControlLine | undefined): Promise<VerifierFiles> {
  if (results?.name === 'results') return results.value ? Object.fromEntries(await filesIn(Buffer.from(results.value, 'base64'))) : {};
  const names = ['reward.txt', 'reward.json', 'ctrf.json'] as const;
  const contents = await Promise.all(names.map((name) => readContainerFile(container, `/logs/verifier/${name}`).catch(() => undefined)));
  const files: VerifierFiles = {};
  names.forEach((name, i) => (files[name] = contents[i]));
  return files;
}

// Every counters block the sessions printed (at the settle, after the verifier), merged.
function countersInAll(controlText: string): CgroupCounters {
  return controlText
    .split('envolve:')
    .map((part) => countersIn(part))
    .reduce<CgroupCounters>((sum, c) => (c ? mergeCounters(sum, c) : sum), NO_COUNTERS);
}

type TrialOutcome = Omit<TrialResult, 'containment' | 'agent' | 'verifier' | 'imageId' | 'runtime'>;

interface TrialRunState extends TrialState {
  container?: Docker.Container;
}

function containmentOf(state: TrialRunState, limits: Limits, runtime: SandboxRuntime, req: TrialRequest): Containment {
  const { network, resources } = req;
  const phases = [state.agent, state.verifier].filter((p): p is PhaseResult => p !== null);
  return {
    runtime,
    networkMode: network ? `internal:${network.name}` : 'none',
    oomKilled: state.oomKilledMain || state.counters.oomKills > 0,
    pidsLimitReached: state.counters.pidsMaxEvents > 0 || state.counters.pidsAtLimit,
    killedBySigkill: phases.some((p) => p.exitCode === 137),
    restartedBeforeVerifier: state.restartedBeforeVerifier,
    leftoverProcesses: Math.max(0, ...state.sessions.flatMap((s) => s.said('leftovers')).map(Number)),
    containerStopped: phases.some((p) => p.containerStopped === true),
    limits,
    ...(resources ? { resources } : {}),
  };
}

async function runPhases(docker: Docker, req: TrialRequest, limits: Limits, runtime: SandboxRuntime, state: TrialRunState): Promise<TrialOutcome> {
  const [{ user, workingDir }] = await Promise.all([imageConfig(docker, req.imageId), assertRuntimeRegistered(docker, runtime)]);
  state.clock.lap('image-config');
  const container = await takeTrialContainer(docker, req, limits, runtime);
  state.container = container;
  watchForStop(container, state);
  state.clock.lap('container');
  const inputs = {
    container,
    req,
    user,
    workingDir,
    solution: usesSolution(req.agent) ? await bundleDirTar(req.bundle, 'solution') : undefined,
    tests: await bundleDirTar(req.bundle, 'tests'),
    agentCommand: agentCommand(req.agent),
    captureDirs: req.captureOutputs ? captureDirsFor(req.captureOutputs, workingDir) : [],
  };
  const outcome = await new TrialPhases(inputs, state).run();
  if (outcome.kind === 'timed-out') {
    return { status: 'timed-out', reward: req.timeoutReward ?? 0, timedOut: true, timedOutPhase: outcome.phase, containerId: container.id };
  }
  const files = await verifierFiles(container, outcome.results);
  const reward = rewardOf(files);
  const ctrf = ctrfOf(files);
  if (!reward.ok) {
    return { status: 'reward-missing', reward: null, timedOut: false, error: reward.problem, ctrf, containerId: container.id };
  }
  return { status: 'completed', reward: reward.reward, rewardDetail: reward.detail, ctrf, timedOut: false, containerId: container.id };
}

export async function runTrial(docker: Docker, req: TrialRequest): Promise<TrialResult> {
  const limits = resolveLimits(req.limits);
  const { runtime } = sandboxRuntimeFor(req.runtime, req.bundle.files);
  const state: TrialRunState = {
    counters: NO_COUNTERS,
    oomKilledMain: false,
    restartedBeforeVerifier: false,
    agent: NOTHING_RAN,
    verifier: null,
    clock: new PhaseClock(),
    sessions: [],
  };
  let outcome: TrialOutcome;
  try {
    outcome = await runPhases(docker, req, limits, runtime, state);
  } catch (err) {
    outcome = { status: 'error', reward: null, timedOut: false, error: err instanceof Error ? err.message : String(err), containerId: state.container?.id };
  } finally {
    for (const session of state.sessions) session.close();
    const control = state.sessions.map((s) => s.controlText).join('\n');
    state.counters = mergeCounters(state.counters, countersInAll(control));
    if (state.container) {
      // A stop of the container records whether the kernel OOM-killed its main process (watchForStop);
      // one that still runs was not. Removal is off the critical path.
      const stopped = [state.agent, state.verifier].some((p) => p?.containerStopped);
      if (stopped) await Promise.race([state.stopped, new Promise((resolve) => setTimeout(resolve, STOP_RECORD_MS))]);
      warmPoolFor(docker).retire(state.container);
      state.clock.lap('final');
    }
  }
  return {
    ...outcome,
    imageId: req.imageId,
    runtime,
    agent: state.agent,
    verifier: state.verifier,
    containment: containmentOf(state, limits, runtime, req),
    phaseMs: state.clock.laps,
    ...(state.outputs ? { outputs: state.outputs } : {}),
    ...(state.protectedPathsTouched !== undefined ? { protectedPathsTouched: state.protectedPathsTouched } : {}),
  };
}
