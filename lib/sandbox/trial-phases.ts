// Drives a trial's session (session.ts) through the steps of its script (trial-script.ts), in
// Harbor's phase order, with a wall-clock budget per phase. When the agent's processes cannot be
// cleared in place, the agent killed the script's shell, or the container stopped (gVisor's
// sandbox killed at a limit), the container is restarted (every process ends, the filesystem
// stays) and a new session runs only the tests and the verifier; once more at most if the
// container stops again before the verifier is done.
import type Docker from 'dockerode';
import { changedFiles, DEFAULT_CAPTURE_BYTES, snapshotHashes } from './capture.ts';
import { mergeCounters, probeCounters, type CgroupCounters } from './containment.ts';
import { runInteractivePhase } from './interactive.ts';
import type { PhaseClock } from './phase-clock.ts';
import { Session, type ControlLine } from './session.ts';
import { restartContainer, SETTLE_TIMEOUT_SEC } from './settle.ts';
import { trialScript, type TrialScriptSteps } from './trial-script.ts';
import type { CapturedOutputs, PhaseResult, TrialRequest } from './types.ts';

// Unpacking a bundle directory, reading the results: generous on a loaded machine.
const STEP_TIMEOUT_SEC = 60;
// The output the engine may still be delivering when a phase's exit is reported.
const LOG_FLUSH_MS = 5000;

const RESTART_NOTE =
  '[envolve: processes the agent left could not be cleared in place (no free pid, or too many zombies, or the container stopped); ' +
  'the container was restarted before the verifier, so /tmp was emptied]';
const SESSION_LOST_NOTE = "[envolve: the agent phase's supervising shell was killed (by the agent); the container was restarted before the verifier]";
const STOPPED_NOTE = '[envolve: the container stopped during this phase (killed at a limit, or its sandbox died)]';
const budgetNote = (sec: number) => `[envolve: phase exceeded its ${sec}s budget; container killed]`;

export interface TrialState {
  counters: CgroupCounters;
  oomKilledMain: boolean;
  restartedBeforeVerifier: boolean;
  agent: PhaseResult;
  verifier: PhaseResult | null;
  outputs?: CapturedOutputs;
  protectedPathsTouched?: boolean;
  clock: PhaseClock;
  sessions: Session[];
  stopped?: Promise<void>; // resolves when the container stops (re-armed after a restart)
}

// One long-poll per container start: the kernel's OOM kill of the container itself is recorded
// before a restart could clear it.
export function watchForStop(container: Docker.Container, state: TrialState): void {
  state.stopped = container.wait().then(
    async () => {
      const info = await container.inspect().catch(() => undefined);
      if (info?.State.OOMKilled) state.oomKilledMain = true;
    },
    () => new Promise<void>(() => undefined), // no answer is not a stop
  );
}

export interface TrialInputs {
  container: Docker.Container;
  req: TrialRequest;
  user: string; // the image's USER
  workingDir: string; // the image's WORKDIR
  solution?: Buffer; // tar of solution/, for the agents that get it
  tests: Buffer; // tar of tests/
  agentCommand: string[] | null; // null: an interactive agent
  captureDirs: string[];
}

export type PhasesOutcome = { kind: 'timed-out'; phase: 'agent' | 'verifier' } | { kind: 'verified'; results?: ControlLine };

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
  const log = session.logNamed('setup').toString();
  return `${step}: ${why}${log ? `; ${log.slice(-1000)}` : ''}`;
}

export class TrialPhases {
  #session!: Session;
  #agentLostSession = false; // the agent phase ended without its exit line: the session is the agent's now
  readonly #verify: TrialScriptSteps['verify'];

  constructor(
    private readonly inputs: TrialInputs,
    private readonly state: TrialState,
  ) {
    this.#verify = { testsBytes: inputs.tests.length, workingDir: inputs.workingDir };
  }

  async run(): Promise<PhasesOutcome> {
    const { agentCommand, captureDirs, solution } = this.inputs;
    await this.#open();
    this.#session.run(
      trialScript({
        setup: { solutionBytes: solution?.length ?? 0 },
        // A snapshot for the capture, or an interactive agent, comes between the setup and the settle.
        pause: !agentCommand || captureDirs.length > 0,
        agent: agentCommand ? { argv: agentCommand, user: this.inputs.user, workingDir: this.inputs.workingDir } : undefined,
        settle: true,
        verify: this.#verify,
      }),
      solution ? [solution] : [],
    );
    const agent = await this.#setupAndAgent();
    this.state.clock.lap('agent');
    if (agent === 'timed-out') return { kind: 'timed-out', phase: 'agent' };
    await this.#settleThenSendTests(agent.before);
    let verified = await this.#testsAndVerifier();
    if (verified === 'lost' && !this.state.restartedBeforeVerifier) {
      await this.#restartForVerifier();
      verified = await this.#testsAndVerifier();
    }
    if (verified === 'timed-out') return { kind: 'timed-out', phase: 'verifier' };
    return { kind: 'verified', results: verified === 'lost' ? undefined : verified.results };
  }

  async #open(): Promise<void> {
    const session = await Session.open(this.inputs.container);
    this.state.sessions.push(session);
    // Under gVisor a sandbox killed at its memory limit may leave the attach open: a stop ends it.
    void this.state.stopped?.then(() => session.close());
    this.#session = session;
  }

  // On timeout: record the counters while the processes still exist, then kill.
  async #killOnTimeout(): Promise<void> {
    this.state.counters = mergeCounters(this.state.counters, await probeCounters(this.inputs.container));
    await this.inputs.container.kill().catch(() => undefined);
  }

  async #setupAndAgent(): Promise<'timed-out' | { before: Map<string, string> }> {
    const { container, req, agentCommand, captureDirs } = this.inputs;
    const session = this.#session;
    let line = await expectLine(session, ['ready', 'phase'], STEP_TIMEOUT_SEC);
    if (line?.name !== 'ready' && line?.name !== 'phase') throw new Error(`setting up the container failed: ${lost(session, line, 'setup')}`);
    let before = new Map<string, string>();
    if (line.name === 'ready') {
      before = await snapshotHashes(container, captureDirs);
      if (req.agent.kind === 'interactive') {
        this.state.clock.lap('setup');
        const timeoutSec = req.agentTimeoutSec;
        const { user, workingDir } = this.inputs;
        this.state.agent = await runInteractivePhase(container, req.agent, { user, workingDir, timeoutSec, onTimeout: () => this.#killOnTimeout() });
        if (this.state.agent.timedOut) return 'timed-out';
      }
      session.send(Buffer.from('go\n'));
      if (!agentCommand) return { before };
      line = await expectLine(session, ['phase'], STEP_TIMEOUT_SEC);
      if (line?.name !== 'phase') throw new Error(`setting up the container failed: ${lost(session, line, 'setup')}`);
    }
    this.state.clock.lap('setup');
    const startedAt = Date.now();
    line = await expectLine(session, ['agent-exit'], req.agentTimeoutSec);
    if (!line && !session.ended) {
      await this.#killOnTimeout();
      this.state.agent = phaseResult(session, 'agent', startedAt, { timedOut: true }, budgetNote(req.agentTimeoutSec));
      return 'timed-out';
    }
    if (line?.name === 'agent-exit') {
      await session.untilMarked('between', LOG_FLUSH_MS);
      this.state.agent = phaseResult(session, 'agent', startedAt, { exitCode: Number(line.value) });
    } else {
      const stopped = session.ended;
      this.#agentLostSession = true;
      this.state.agent = phaseResult(session, 'agent', startedAt, stopped ? { containerStopped: true } : {}, stopped ? STOPPED_NOTE : SESSION_LOST_NOTE);
    }
    return { before };
  }

  // Nothing the agent started may survive into the verifier phase: killed in place, or else by a
  // restart. The capture reads the agent's files before the tests go in.
  async #settleThenSendTests(before: Map<string, string>): Promise<void> {
    const { container, req, captureDirs, tests } = this.inputs;
    const settled = !this.#agentLostSession && (await expectLine(this.#session, ['settled', 'settle-failed'], SETTLE_TIMEOUT_SEC))?.name === 'settled';
    if (!settled) return this.#restartForVerifier();
    this.state.clock.lap('settle');
    if (req.captureOutputs) this.state.outputs = await changedFiles(container, captureDirs, before, req.captureOutputs.maxBytes ?? DEFAULT_CAPTURE_BYTES);
    this.state.clock.lap('capture');
    this.#session.send(tests);
  }

  async #restartForVerifier(): Promise<void> {
    const { container, tests } = this.inputs;
    this.#session.close();
    await restartContainer(container);
    watchForStop(container, this.state);
    if (!this.state.restartedBeforeVerifier) this.state.agent = { ...this.state.agent, log: `${this.state.agent.log}\n${RESTART_NOTE}\n` };
    this.state.restartedBeforeVerifier = true;
    this.state.clock.lap('settle');
    await this.#open();
    this.#session.run(trialScript({ verify: this.#verify }), [tests]);
  }

  // The tests in, the verifier, then the results line; 'lost' when the session ended before the
  // verifier did (the container stopped, or the shell running it was killed).
  async #testsAndVerifier(): Promise<{ results?: ControlLine } | 'timed-out' | 'lost'> {
    const { req } = this.inputs;
    const session = this.#session;
    let line = await expectLine(session, ['touched'], STEP_TIMEOUT_SEC);
    if (!line && session.ended) return 'lost';
    if (line?.name !== 'touched') throw new Error(`the tests could not be unpacked in the container: ${lost(session, line, 'tests')}`);
    this.state.protectedPathsTouched = this.state.protectedPathsTouched === true || line.value === '1';
    line = await expectLine(session, ['phase'], STEP_TIMEOUT_SEC);
    this.state.clock.lap('tests-in');
    const startedAt = Date.now();
    if (line?.name === 'phase') line = await expectLine(session, ['verifier-exit'], req.verifierTimeoutSec);
    this.state.clock.lap('verifier');
    if (!line && !session.ended) {
      await this.#killOnTimeout();
      this.state.verifier = phaseResult(session, 'verifier', startedAt, { timedOut: true }, budgetNote(req.verifierTimeoutSec));
      return 'timed-out';
    }
    if (line?.name !== 'verifier-exit') {
      const stopped = session.ended;
      this.state.verifier = phaseResult(
        session,
        'verifier',
        startedAt,
        stopped ? { containerStopped: true } : {},
        stopped ? STOPPED_NOTE : "[envolve: the verifier's shell was killed]",
      );
      return 'lost';
    }
    await session.untilMarked('after', LOG_FLUSH_MS);
    this.state.verifier = phaseResult(session, 'verifier', startedAt, { exitCode: Number(line.value) });
    const results = await expectLine(session, ['results'], STEP_TIMEOUT_SEC);
    this.state.clock.lap('read-result');
    return { results: results?.name === 'results' ? results : undefined };
  }
}
