// One trial, in Harbor's phase order, in one container: the agent works
// first; only after it has finished (and every process it left is killed)
// are the tests copied in and run as root, and the reward file read.
import path from 'node:path';
import type Docker from 'dockerode';
import { changedFiles, DEFAULT_CAPTURE_BYTES, snapshotHashes } from './capture.ts';
import { copyBundleDir, readContainerFile } from './container-files.ts';
import { mergeCounters, NO_COUNTERS, probeCounters, type CgroupCounters } from './containment.ts';
import { execOutput, runPhase } from './exec.ts';
import { runInteractivePhase } from './interactive.ts';
import { hostConfigFor, resolveLimits } from './resource-limits.ts';
import { PhaseClock } from './phase-clock.ts';
import { stopAgentProcesses } from './settle.ts';
import { parseRewardJson, parseRewardTxt, type ParsedReward } from './reward.ts';
import type { AgentSpec, CapturedOutputs, Containment, Limits, PhaseResult, TrialRequest, TrialResult } from './types.ts';
import { warmPoolFor } from './warm-pool.ts';

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
async function takeTrialContainer(docker: Docker, req: TrialRequest, limits: Limits): Promise<Docker.Container> {
  const options: Docker.ContainerCreateOptions = {
    Image: req.imageId,
    // Phases run as execs; the main process only keeps the container alive.
    Entrypoint: ['sleep'],
    Cmd: ['infinity'],
    // The main process runs as root even when the image sets USER: Docker
    // gives root execs no capabilities at all in a container whose main
    // process is non-root, and the verifier and the clean-up need theirs.
    User: '0',
    NetworkDisabled: true,
    Labels: { 'envolve.managed': '1', 'envolve.task': req.bundle.name },
    HostConfig: hostConfigFor(limits),
  };
  const taken = await warmPoolFor(docker).take({ options, labels: req.labels ?? {}, budgetSec: req.agentTimeoutSec + req.verifierTimeoutSec });
  return taken.container;
}

// Image IDs are content addresses: the configuration behind one never changes.
const imageConfigs = new Map<string, Promise<{ user: string; workingDir: string }>>();
function imageConfig(docker: Docker, imageId: string): Promise<{ user: string; workingDir: string }> {
  let config = imageConfigs.get(imageId);
  if (!config) {
    config = docker.getImage(imageId).inspect().then((image) => ({ user: image.Config.User || 'root', workingDir: image.Config.WorkingDir || '/' }));
    config.catch(() => imageConfigs.delete(imageId));
    imageConfigs.set(imageId, config);
  }
  return config;
}

async function readReward(container: Docker.Container): Promise<ParsedReward> {
  const txt = await readContainerFile(container, '/logs/verifier/reward.txt');
  if (txt !== undefined) return parseRewardTxt(txt.toString('utf8'));
  const json = await readContainerFile(container, '/logs/verifier/reward.json');
  if (json !== undefined) return parseRewardJson(json.toString('utf8'));
  return { ok: false, problem: 'the verifier wrote neither /logs/verifier/reward.txt nor reward.json' };
}

async function readCtrf(container: Docker.Container): Promise<unknown> {
  const ctrf = await readContainerFile(container, '/logs/verifier/ctrf.json');
  if (ctrf === undefined) return undefined;
  try {
    return JSON.parse(ctrf.toString('utf8'));
  } catch {
    return { unparsable: ctrf.toString('utf8').slice(0, 4096) };
  }
}

type TrialOutcome = Omit<TrialResult, 'containment' | 'agent' | 'verifier' | 'imageId'>;

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
}

function containmentOf(state: TrialState, limits: Limits): Containment {
  const phases = [state.agent, state.verifier].filter((p): p is PhaseResult => p !== null);
  return {
    networkMode: 'none',
    oomKilled: state.oomKilledMain || state.counters.oomKills > 0,
    pidsLimitReached: state.counters.pidsMaxEvents > 0 || state.counters.pidsAtLimit,
    killedBySigkill: phases.some((p) => p.exitCode === 137),
    restartedBeforeVerifier: state.restartedBeforeVerifier,
    limits,
  };
}

async function runPhases(docker: Docker, req: TrialRequest, limits: Limits, state: TrialState): Promise<TrialOutcome> {
  const clock = state.clock;
  const { user, workingDir } = await imageConfig(docker, req.imageId);
  clock.lap('image-config');
  const container = await takeTrialContainer(docker, req, limits);
  state.container = container;
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

  // Independent: asked at once (each is a round trip to the daemon).
  await Promise.all([
    execOutput(container, ['sh', '-c', 'mkdir -p /logs/agent /logs/verifier && chmod 0777 /logs/agent']),
    usesSolution(req.agent) ? copyBundleDir(container, req.bundle, 'solution') : undefined,
  ]);
  const cmd = agentCommand(req.agent);
  const captureDirs = req.captureOutputs ? captureDirsFor(req.captureOutputs, workingDir) : [];
  const before = await snapshotHashes(container, captureDirs);
  clock.lap('setup');
  if (req.agent.kind === 'interactive') {
    state.agent = await runInteractivePhase(container, req.agent, { user, workingDir, timeoutSec: req.agentTimeoutSec, onTimeout: killOnTimeout });
  } else if (cmd) {
    state.agent = await runPhase(container, { cmd, user, workingDir, timeoutSec: req.agentTimeoutSec, onTimeout: killOnTimeout });
  }
  clock.lap('agent');
  if (state.agent.timedOut) return timedOut('agent');

  // Counters first: a restart below would reset them.
  state.counters = mergeCounters(state.counters, await probeCounters(container, { exec: true }));
  // The capture reads the agent's directories and the discard empties the verifier's: when they do
  // not overlap, the discard runs in the settle's own exec (one round trip fewer) and the capture
  // alongside the tests going in; otherwise the capture must see those paths before they change.
  const discardInSettle = captureDirs.every(outsideVerifierPaths);
  const settled = await stopAgentProcesses(container, discardInSettle ? DISCARD_PROTECTED : '');
  if (settled.outcome === 'restarted') {
    state.restartedBeforeVerifier = true;
    state.agent = { ...state.agent, log: `${state.agent.log}\n${RESTART_NOTE}\n` };
  }
  clock.lap('settle');
  const capture = async () => {
    if (req.captureOutputs) state.outputs = await changedFiles(container, captureDirs, before, req.captureOutputs.maxBytes ?? DEFAULT_CAPTURE_BYTES);
  };
  // A restart ended the settle's exec before its discard ran.
  const discardLog = async () =>
    discardInSettle && settled.outcome === 'killed-in-place' ? settled.log : (await execOutput(container, ['sh', '-c', DISCARD_PROTECTED])).log;
  const testsIn = async () => {
    state.protectedPathsTouched = (await discardLog()).includes('touched=1');
    await copyBundleDir(container, req.bundle, 'tests');
  };
  if (discardInSettle) await Promise.all([capture(), testsIn()]);
  else {
    await capture();
    await testsIn();
  }
  clock.lap('capture-and-tests-in');
  state.verifier = await runPhase(container, {
    cmd: ['bash', '/tests/test.sh'],
    user: 'root',
    workingDir,
    timeoutSec: req.verifierTimeoutSec,
    onTimeout: killOnTimeout,
  });
  clock.lap('verifier');
  if (state.verifier.timedOut) return timedOut('verifier');

  // Independent reads: asked at once.
  const [counters, reward, ctrf] = await Promise.all([probeCounters(container, { exec: true }), readReward(container), readCtrf(container)]);
  state.counters = mergeCounters(state.counters, counters);
  clock.lap('read-result');
  if (!reward.ok) {
    return { status: 'reward-missing', reward: null, timedOut: false, error: reward.problem, ctrf, containerId: container.id };
  }
  return { status: 'completed', reward: reward.reward, rewardDetail: reward.detail, ctrf, timedOut: false, containerId: container.id };
}

export async function runTrial(docker: Docker, req: TrialRequest): Promise<TrialResult> {
  const limits = resolveLimits(req.limits);
  const state: TrialState = { counters: NO_COUNTERS, oomKilledMain: false, restartedBeforeVerifier: false, agent: NOTHING_RAN, verifier: null, clock: new PhaseClock() };
  let outcome: TrialOutcome;
  try {
    outcome = await runPhases(docker, req, limits, state);
  } catch (err) {
    outcome = { status: 'error', reward: null, timedOut: false, error: err instanceof Error ? err.message : String(err), containerId: state.container?.id };
  } finally {
    if (state.container) {
      state.oomKilledMain = await state.container.inspect().then((i) => i.State.OOMKilled, () => false);
      // Removal is off the critical path: the result is complete once the container was inspected.
      warmPoolFor(docker).retire(state.container);
      state.clock.lap('final-inspect');
    }
  }
  return {
    ...outcome,
    imageId: req.imageId,
    agent: state.agent,
    verifier: state.verifier,
    containment: containmentOf(state, limits),
    phaseMs: state.clock.laps,
    ...(state.outputs ? { outputs: state.outputs } : {}),
    ...(state.protectedPathsTouched !== undefined ? { protectedPathsTouched: state.protectedPathsTouched } : {}),
  };
}
