// One trial, in Harbor's phase order, in one container: the agent works
// first; only after it has finished (and every process it left is killed)
// are the tests copied in and run as root, and the reward file read.
import path from 'node:path';
import type Docker from 'dockerode';
import { changedFiles, DEFAULT_CAPTURE_BYTES, snapshotHashes } from './capture.ts';
import { bundleDirTar, readContainerFile, UNPACK_STDIN } from './container-files.ts';
import { BUILTIN_PROBE, countersIn, mergeCounters, NO_COUNTERS, probeCounters, type CgroupCounters } from './containment.ts';
import { execBytes, runPhase } from './exec.ts';
import { runInteractivePhase } from './interactive.ts';
import { agentPhaseCommand, hostConfigFor, resolveLimits } from './resource-limits.ts';
import { PhaseClock } from './phase-clock.ts';
import { assertRuntimeRegistered, sandboxRuntimeFor, type SandboxRuntime } from './runtime.ts';
import { stopAgentProcesses } from './settle.ts';
import { parseRewardJson, parseRewardTxt, type ParsedReward } from './reward.ts';
import { filesIn } from '../env/tar.ts';
import type { AgentSpec, CapturedOutputs, Containment, Limits, PhaseResult, TrialRequest, TrialResult } from './types.ts';
import { warmPoolFor } from './warm-pool.ts';

// Making directories and unpacking a bundle directory: generous on a loaded machine.
const SETUP_TIMEOUT_SEC = 60;

const NOTHING_RAN: PhaseResult = { exitCode: null, durationMs: 0, timedOut: false, log: '', logTruncated: false };

const RESTART_NOTE =
  '[envolve: processes the agent left could not be cleared in place (no free pid, or too many zombies); ' +
  'the container was restarted before the verifier, so /tmp was emptied]';

const usesSolution = (agent: AgentSpec): boolean => agent.kind === 'oracle' || (agent.kind === 'interactive' && agent.copySolution === true);

// Whatever the agent put in /logs/verifier or /tests is discarded; that it put something there is kept.
const DISCARD_PROTECTED = `touched=0
[ -n "$(ls -A /logs/verifier 2>/dev/null)" ] && touched=1
[ -e /tests ] && touched=1
rm -rf /logs/verifier /tests && mkdir -p /logs/verifier
echo "touched=$touched"`;

// Then the tests arrive on stdin, sent only once the exec says the agent is gone (SETTLED): no
// process of the agent's can read them from the pipe.
const SETTLED = '__envolve_settled__';
const TESTS_NOT_UNPACKED = '__envolve_tests_not_unpacked__';
const DISCARD_AND_UNPACK_TESTS = `${DISCARD_PROTECTED}
echo ${SETTLED}
${UNPACK_STDIN} || echo ${TESTS_NOT_UNPACKED}`;

// After the verifier, one exec reads the counters and /logs/verifier's result files (as a tar).
const RESULTS_FOLLOW = '__envolve_results_tar__\n';
const READ_RESULTS = `${BUILTIN_PROBE}
printf '${RESULTS_FOLLOW}'
cd /logs/verifier 2>/dev/null || exit 0
set --
for f in reward.txt reward.json ctrf.json; do [ -f "$f" ] && set -- "$@" "$f"; done
[ $# -eq 0 ] || exec tar -c -f - "$@"`;

const VERIFIER_PATHS = ['/tests', '/logs'];
function outsideVerifierPaths(dir: string): boolean {
  const normal = path.posix.normalize(`${dir}/`);
  return VERIFIER_PATHS.every((p) => !normal.startsWith(`${p}/`) && !`${p}/`.startsWith(normal));
}

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
  const options: Docker.ContainerCreateOptions = {
    Image: req.imageId,
    // Phases run as execs; the main process only keeps the container alive.
    Entrypoint: ['sleep'],
    Cmd: ['infinity'],
    // The main process runs as root even when the image sets USER: Docker
    // gives root execs no capabilities at all in a container whose main
    // process is non-root, and the verifier and the clean-up need theirs.
    User: '0',
    NetworkDisabled: !req.network,
    Labels: { 'envolve.managed': '1', 'envolve.task': req.bundle.name },
    HostConfig: req.network ? { ...hostConfigFor(limits, runtime), NetworkMode: req.network.name } : hostConfigFor(limits, runtime),
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

// One exec for the counters and the result files; if it cannot run (the verifier left no free
// pid), the counters come from the engine and the files from archive reads.
async function readResults(container: Docker.Container): Promise<{ counters: CgroupCounters; files: VerifierFiles }> {
  const res = await execBytes(container, ['bash', '-c', READ_RESULTS]).catch(() => undefined);
  const split = res?.exitCode === 0 ? res.stdout.indexOf(RESULTS_FOLLOW) : -1;
  const counters = split >= 0 ? countersIn(res!.stdout.subarray(0, split).toString('utf8')) : undefined;
  if (res && counters) {
    const archive = res.stdout.subarray(split + Buffer.byteLength(RESULTS_FOLLOW));
    const files = archive.length > 0 ? Object.fromEntries(await filesIn(archive)) : {};
    return { counters, files };
  }
  const names = ['reward.txt', 'reward.json', 'ctrf.json'] as const;
  const [fallbackCounters, ...contents] = await Promise.all([
    probeCounters(container, { exec: true }),
    ...names.map((name) => readContainerFile(container, `/logs/verifier/${name}`)),
  ]);
  const files: VerifierFiles = {};
  names.forEach((name, i) => (files[name] = contents[i]));
  return { counters: fallbackCounters, files };
}

type TrialOutcome = Omit<TrialResult, 'containment' | 'agent' | 'verifier' | 'imageId' | 'runtime'>;

interface TrialState {
  container?: Docker.Container;
  counters: CgroupCounters;
  oomKilledMain: boolean;
  restartedBeforeVerifier: boolean;
  agent: PhaseResult;
  verifier: PhaseResult | null;
  outputs?: CapturedOutputs;
  protectedPathsTouched?: boolean;
  clock: PhaseClock;
  stopped?: Promise<void>; // resolves when the container stops (re-armed after a restart)
}

// One long-poll per container start: phases end when the container stops, and the kernel's OOM
// kill of the container itself is recorded before a restart could clear it.
function watchForStop(container: Docker.Container, state: TrialState): void {
  state.stopped = container.wait().then(
    async () => {
      const info = await container.inspect().catch(() => undefined);
      if (info?.State.OOMKilled) state.oomKilledMain = true;
    },
    () => new Promise<void>(() => undefined), // no answer is not a stop
  );
}

function containmentOf(state: TrialState, limits: Limits, runtime: SandboxRuntime, network?: TrialRequest['network']): Containment {
  const phases = [state.agent, state.verifier].filter((p): p is PhaseResult => p !== null);
  return {
    runtime,
    networkMode: network ? `internal:${network.name}` : 'none',
    oomKilled: state.oomKilledMain || state.counters.oomKills > 0,
    pidsLimitReached: state.counters.pidsMaxEvents > 0 || state.counters.pidsAtLimit,
    killedBySigkill: phases.some((p) => p.exitCode === 137),
    restartedBeforeVerifier: state.restartedBeforeVerifier,
    containerStopped: phases.some((p) => p.containerStopped === true),
    limits,
  };
}

async function runPhases(docker: Docker, req: TrialRequest, limits: Limits, runtime: SandboxRuntime, state: TrialState): Promise<TrialOutcome> {
  const clock = state.clock;
  const [{ user, workingDir }] = await Promise.all([imageConfig(docker, req.imageId), assertRuntimeRegistered(docker, runtime)]);
  clock.lap('image-config');
  const container = await takeTrialContainer(docker, req, limits, runtime);
  state.container = container;
  watchForStop(container, state);
  clock.lap('container');

  // On timeout: record the counters while the processes still exist, then kill.
  const killOnTimeout = async () => {
    state.counters = mergeCounters(state.counters, await probeCounters(container, { exec: false }));
    await container.kill();
  };
  const timedOut = (phase: 'agent' | 'verifier') => ({
    status: 'timed-out' as const,
    reward: req.timeoutReward ?? 0,
    timedOut: true,
    timedOutPhase: phase,
    containerId: container.id,
  });

  // The solution (for an oracle) comes in on the same exec's stdin: one round trip.
  const solution = usesSolution(req.agent) ? await bundleDirTar(req.bundle, 'solution') : undefined;
  const setup = await runPhase(container, {
    cmd: ['sh', '-c', `mkdir -p /logs/agent /logs/verifier && chmod 0777 /logs/agent${solution ? ` && ${UNPACK_STDIN}` : ''}`],
    user: 'root',
    workingDir: '/',
    timeoutSec: SETUP_TIMEOUT_SEC,
    onTimeout: killOnTimeout,
    input: solution ? { data: solution } : undefined,
    stopped: state.stopped,
  });
  if (setup.exitCode !== 0) throw new Error(`setting up the container failed (exit ${setup.exitCode}): ${setup.log.slice(-1000)}`);
  const tests = await bundleDirTar(req.bundle, 'tests');
  const cmd = agentCommand(req.agent);
  const captureDirs = req.captureOutputs ? captureDirsFor(req.captureOutputs, workingDir) : [];
  const before = await snapshotHashes(container, captureDirs);
  clock.lap('setup');
  if (req.agent.kind === 'interactive') {
    state.agent = await runInteractivePhase(container, req.agent, { user, workingDir, timeoutSec: req.agentTimeoutSec, onTimeout: killOnTimeout });
  } else if (cmd) {
    state.agent = await runPhase(container, {
      cmd: agentPhaseCommand(cmd, user),
      user,
      workingDir,
      timeoutSec: req.agentTimeoutSec,
      onTimeout: killOnTimeout,
      stopped: state.stopped,
    });
  }
  clock.lap('agent');
  if (state.agent.timedOut) return timedOut('agent');

  // The capture reads the agent's directories and the discard empties the verifier's: when they do
  // not overlap, the discard and the tests run in the settle's own exec (one round trip) and the
  // capture after it; otherwise the capture must see those paths before they change.
  const discardInSettle = captureDirs.every(outsideVerifierPaths);
  const settled = await stopAgentProcesses(container, {
    thenRun: discardInSettle ? DISCARD_AND_UNPACK_TESTS : '',
    input: discardInSettle ? { data: tests, afterOutput: SETTLED } : undefined,
    // The settle's exec reads the counters; a restart would reset them, so read them first.
    beforeRestart: async () => void (state.counters = mergeCounters(state.counters, await probeCounters(container, { exec: true }))),
  });
  state.counters = mergeCounters(state.counters, countersIn(settled.log) ?? NO_COUNTERS);
  if (settled.outcome === 'restarted') {
    watchForStop(container, state);
    state.restartedBeforeVerifier = true;
    state.agent = { ...state.agent, log: `${state.agent.log}\n${RESTART_NOTE}\n` };
  }
  clock.lap('settle');
  const capture = async () => {
    if (req.captureOutputs) state.outputs = await changedFiles(container, captureDirs, before, req.captureOutputs.maxBytes ?? DEFAULT_CAPTURE_BYTES);
  };
  // A restart ended the settle's exec before its discard ran.
  const testsIn = async () => {
    const log =
      discardInSettle && settled.outcome === 'killed-in-place'
        ? settled.log
        : (
            await runPhase(container, {
              cmd: ['bash', '-c', DISCARD_AND_UNPACK_TESTS],
              user: 'root',
              workingDir: '/',
              timeoutSec: SETUP_TIMEOUT_SEC,
              onTimeout: killOnTimeout,
              input: { data: tests, afterOutput: SETTLED },
              stopped: state.stopped,
            })
          ).log;
    if (log.includes(TESTS_NOT_UNPACKED) || !log.includes(SETTLED)) throw new Error(`the tests could not be unpacked in the container: ${log.slice(-1000)}`);
    state.protectedPathsTouched = log.includes('touched=1');
  };
  if (!discardInSettle) await capture();
  await testsIn();
  if (discardInSettle) await capture();
  clock.lap('capture-and-tests-in');
  state.verifier = await runPhase(container, {
    cmd: ['bash', '/tests/test.sh'],
    user: 'root',
    workingDir,
    timeoutSec: req.verifierTimeoutSec,
    onTimeout: killOnTimeout,
    stopped: state.stopped,
  });
  clock.lap('verifier');
  if (state.verifier.timedOut) return timedOut('verifier');

  const results = await readResults(container);
  state.counters = mergeCounters(state.counters, results.counters);
  const reward = rewardOf(results.files);
  const ctrf = ctrfOf(results.files);
  clock.lap('read-result');
  if (!reward.ok) {
    return { status: 'reward-missing', reward: null, timedOut: false, error: reward.problem, ctrf, containerId: container.id };
  }
  return { status: 'completed', reward: reward.reward, rewardDetail: reward.detail, ctrf, timedOut: false, containerId: container.id };
}

export async function runTrial(docker: Docker, req: TrialRequest): Promise<TrialResult> {
  const limits = resolveLimits(req.limits);
  const { runtime } = sandboxRuntimeFor(req.runtime, req.bundle.files);
  const state: TrialState = {
    counters: NO_COUNTERS,
    oomKilledMain: false,
    restartedBeforeVerifier: false,
    agent: NOTHING_RAN,
    verifier: null,
    clock: new PhaseClock(),
  };
  let outcome: TrialOutcome;
  try {
    outcome = await runPhases(docker, req, limits, runtime, state);
  } catch (err) {
    outcome = { status: 'error', reward: null, timedOut: false, error: err instanceof Error ? err.message : String(err), containerId: state.container?.id };
  } finally {
    if (state.container) {
      state.oomKilledMain = await state.container.inspect().then(
        (i) => i.State.OOMKilled,
        () => false,
      );
      // Removal is off the critical path: the result is complete once the container was inspected.
      warmPoolFor(docker).retire(state.container);
      state.clock.lap('final-inspect');
    }
  }
  return {
    ...outcome,
    imageId: req.imageId,
    runtime,
    agent: state.agent,
    verifier: state.verifier,
    containment: containmentOf(state, limits, runtime, req.network),
    phaseMs: state.clock.laps,
    ...(state.outputs ? { outputs: state.outputs } : {}),
    ...(state.protectedPathsTouched !== undefined ? { protectedPathsTouched: state.protectedPathsTouched } : {}),
  };
}
