// One trial, in Harbor's phase order, in one container: the agent works first; only after it
// has finished (and every process it left is killed) are the tests sent in and run as root, and
// the reward file read. It all happens in one session with the container's main process
// (session.ts, trial-script.ts): no exec, unless the agent is interactive (each of its commands
// is one) or something went wrong (a restart, a lost session).
import type Docker from 'dockerode';
import { changedFiles, DEFAULT_CAPTURE_BYTES, snapshotHashes } from './capture.ts';
import { bundleDirTar, readContainerFile } from './container-files.ts';
import { countersIn, mergeCounters, NO_COUNTERS, probeCounters, type CgroupCounters } from './containment.ts';
import { runInteractivePhase } from './interactive.ts';
import { hostConfigFor, resolveLimits } from './resource-limits.ts';
import { PhaseClock } from './phase-clock.ts';
import { assertRuntimeRegistered, configuredSandboxRuntime, type SandboxRuntime } from './runtime.ts';
import { NO_CONTAINER_LOG, Session, SUPERVISED_MAIN_PROCESS, type ControlLine } from './session.ts';
import { restartContainer, SETTLE_TIMEOUT_SEC } from './settle.ts';
import { trialScript, type TrialScriptSteps } from './trial-script.ts';
import { parseRewardJson, parseRewardTxt, type ParsedReward } from './reward.ts';
import { filesIn } from '../env/tar.ts';
import type { AgentSpec, CapturedOutputs, Containment, Limits, PhaseResult, TrialRequest, TrialResult } from './types.ts';
import { warmPoolFor } from './warm-pool.ts';

// Making directories and unpacking a bundle directory, reading the results: generous on a loaded machine.
const SETUP_TIMEOUT_SEC = 60;
// The output the engine may still be delivering when a phase's exit is reported.
const LOG_FLUSH_MS = 5000;

const NOTHING_RAN: PhaseResult = { exitCode: null, durationMs: 0, timedOut: false, log: '', logTruncated: false };

const RESTART_NOTE =
  '[envolve: processes the agent left could not be cleared in place (no free pid, or too many zombies); ' +
  'the container was restarted before the verifier, so /tmp was emptied]';
const SESSION_LOST_NOTE = "[envolve: the agent phase's supervising shell was killed (by the agent); its processes were stopped before the verifier]";
const STOPPED_NOTE = '[envolve: the container stopped during this phase (killed at a limit, or its sandbox died)]';

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
  sessions: Session[];
  leftoverProcesses: number;
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
    leftoverProcesses: state.leftoverProcesses,
    containerStopped: phases.some((p) => p.containerStopped === true),
    limits,
  };
}

// The next control line among `names` (a failure and the session's end always answer), or
// undefined when the session ended or the budget ran out first.
async function expectLine(session: Session, names: string[], timeoutSec: number): Promise<ControlLine | undefined> {
  const deadline = Date.now() + timeoutSec * 1000;
  for (;;) {
    const line = await session.next(Math.max(0, deadline - Date.now()));
    if (!line || names.includes(line.name) || line.name === 'failed' || line.name === 'end') return line;
  }
}

function phaseResult(session: Session, logName: string, startedAt: number, fields: Partial<PhaseResult>, note?: string): PhaseResult {
  const log = session.logNamed(logName);
  if (note) log.write(Buffer.from(`\n${note}\n`));
  return { exitCode: null, durationMs: Date.now() - startedAt, timedOut: false, log: log.toString(), logTruncated: log.truncated, ...fields };
}

// Why a step got no answer, for an error message.
function lost(session: Session, line: ControlLine | undefined, step: string): string {
  const why = line?.name === 'failed' ? line.value : session.ended ? 'the container stopped' : line ? `its shell ended (${line.value})` : 'no answer in time';
  return `${step}: ${why}${session.logNamed('setup').toString() ? `; ${session.logNamed('setup').toString().slice(-1000)}` : ''}`;
}

async function openSession(container: Docker.Container, state: TrialState): Promise<Session> {
  const session = await Session.open(container);
  state.sessions.push(session);
  // Under gVisor a sandbox killed at its memory limit may leave the attach open: a stop ends it.
  void state.stopped?.then(() => session.close());
  return session;
}

type SettleOutcome = 'settled' | 'lost' | 'restart';

async function awaitSettle(session: Session): Promise<SettleOutcome> {
  const line = await expectLine(session, ['settled', 'settle-failed'], SETTLE_TIMEOUT_SEC);
  if (line?.name === 'settled') return 'settled';
  return line?.name === 'end' ? 'lost' : 'restart';
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
    state.counters = mergeCounters(state.counters, await probeCounters(container));
    await container.kill().catch(() => undefined);
  };
  const timedOut = (phase: 'agent' | 'verifier') => ({
    status: 'timed-out' as const,
    reward: req.timeoutReward ?? 0,
    timedOut: true,
    timedOutPhase: phase,
    containerId: container.id,
  });
  const budgetNote = (sec: number) => `[envolve: phase exceeded its ${sec}s budget; container killed]`;

  const solution = usesSolution(req.agent) ? await bundleDirTar(req.bundle, 'solution') : undefined;
  const tests = await bundleDirTar(req.bundle, 'tests');
  const command = agentCommand(req.agent);
  const captureDirs = req.captureOutputs ? captureDirsFor(req.captureOutputs, workingDir) : [];
  const verify: TrialScriptSteps['verify'] = { testsBytes: tests.length, workingDir };
  let session = await openSession(container, state);
  session.run(
    trialScript({
      setup: { solutionBytes: solution?.length ?? 0 },
      // A snapshot for the capture, or an interactive agent, comes between the setup and the settle.
      pause: !command || captureDirs.length > 0,
      agent: command ? { argv: command, user, workingDir } : undefined,
      settle: true,
      verify,
    }),
    solution ? [solution] : [],
  );

  let line = await expectLine(session, ['ready', 'phase'], SETUP_TIMEOUT_SEC);
  if (line?.name !== 'ready' && line?.name !== 'phase') throw new Error(`setting up the container failed: ${lost(session, line, 'setup')}`);
  let before = new Map<string, string>();
  if (line.name === 'ready') {
    before = await snapshotHashes(container, captureDirs);
    if (req.agent.kind === 'interactive') {
      clock.lap('setup');
      state.agent = await runInteractivePhase(container, req.agent, { user, workingDir, timeoutSec: req.agentTimeoutSec, onTimeout: killOnTimeout });
      if (state.agent.timedOut) return timedOut('agent');
    }
    session.send(Buffer.from('go\n'));
    if (command) line = await expectLine(session, ['phase'], SETUP_TIMEOUT_SEC);
    if (command && line?.name !== 'phase') throw new Error(`setting up the container failed: ${lost(session, line, 'setup')}`);
  }
  if (command) {
    clock.lap('setup');
    const startedAt = Date.now();
    line = await expectLine(session, ['agent-exit'], req.agentTimeoutSec);
    if (!line && !session.ended) {
      await killOnTimeout();
      state.agent = phaseResult(session, 'agent', startedAt, { timedOut: true }, budgetNote(req.agentTimeoutSec));
      return timedOut('agent');
    }
    if (line?.name === 'agent-exit') {
      await session.untilMarked('between', LOG_FLUSH_MS);
      state.agent = phaseResult(session, 'agent', startedAt, { exitCode: Number(line.value) });
    } else {
      const stopped = session.ended;
      state.agent = phaseResult(session, 'agent', startedAt, stopped ? { containerStopped: true } : {}, stopped ? STOPPED_NOTE : SESSION_LOST_NOTE);
    }
  }
  clock.lap('agent');

  // Nothing the agent started may survive into the verifier phase: killed in place, or, failing
  // that (or with the session lost twice, or the container stopped), by a restart.
  let settle: SettleOutcome = session.ended ? 'restart' : await awaitSettle(session);
  if (settle === 'lost') {
    session.run(trialScript({ settle: true, verify }));
    settle = await awaitSettle(session);
  }
  if (settle === 'settled') {
    clock.lap('settle');
    if (req.captureOutputs) state.outputs = await changedFiles(container, captureDirs, before, req.captureOutputs.maxBytes ?? DEFAULT_CAPTURE_BYTES);
    clock.lap('capture');
    session.send(tests);
  } else {
    session.close();
    await restartContainer(container);
    watchForStop(container, state);
    state.restartedBeforeVerifier = true;
    state.agent = { ...state.agent, log: `${state.agent.log}\n${RESTART_NOTE}\n` };
    clock.lap('settle');
    session = await openSession(container, state);
    session.run(trialScript({ verify }), [tests]);
  }

  line = await expectLine(session, ['touched'], SETUP_TIMEOUT_SEC);
  if (line?.name !== 'touched') throw new Error(`the tests could not be unpacked in the container: ${lost(session, line, 'tests')}`);
  state.protectedPathsTouched = line.value === '1';
  line = await expectLine(session, ['phase'], SETUP_TIMEOUT_SEC);
  clock.lap('tests-in');
  const verifierStartedAt = Date.now();
  line = line?.name === 'phase' ? await expectLine(session, ['verifier-exit'], req.verifierTimeoutSec) : line;
  if (!line && !session.ended) {
    await killOnTimeout();
    state.verifier = phaseResult(session, 'verifier', verifierStartedAt, { timedOut: true }, budgetNote(req.verifierTimeoutSec));
    return timedOut('verifier');
  }
  if (line?.name === 'verifier-exit') {
    await session.untilMarked('after', LOG_FLUSH_MS);
    state.verifier = phaseResult(session, 'verifier', verifierStartedAt, { exitCode: Number(line.value) });
  } else {
    const stopped = session.ended;
    state.verifier = phaseResult(
      session,
      'verifier',
      verifierStartedAt,
      stopped ? { containerStopped: true } : {},
      stopped ? STOPPED_NOTE : "[envolve: the verifier's shell was killed]",
    );
  }
  clock.lap('verifier');

  const results = line?.name === 'verifier-exit' ? await expectLine(session, ['results'], SETUP_TIMEOUT_SEC) : undefined;
  const files = await verifierFiles(container, results);
  const reward = rewardOf(files);
  const ctrf = ctrfOf(files);
  clock.lap('read-result');
  if (!reward.ok) {
    return { status: 'reward-missing', reward: null, timedOut: false, error: reward.problem, ctrf, containerId: container.id };
  }
  return { status: 'completed', reward: reward.reward, rewardDetail: reward.detail, ctrf, timedOut: false, containerId: container.id };
}

export async function runTrial(docker: Docker, req: TrialRequest): Promise<TrialResult> {
  const limits = resolveLimits(req.limits);
  const runtime = req.runtime ?? configuredSandboxRuntime();
  const state: TrialState = {
    counters: NO_COUNTERS,
    oomKilledMain: false,
    restartedBeforeVerifier: false,
    agent: NOTHING_RAN,
    verifier: null,
    clock: new PhaseClock(),
    sessions: [],
    leftoverProcesses: 0,
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
    state.leftoverProcesses = Math.max(0, ...[...control.matchAll(/^envolve:leftovers (\d+)$/gm)].map((m) => Number(m[1])));
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
