// The agent phase of an interactive agent: the agent drives a terminal, and every command it
// runs is its own exec in the trial container (as the image's user, in a fresh bash that starts
// where the previous command left off). Each command has its own timeout; the phase as a whole
// has the wall-clock budget, after which the agent's signal aborts and the container is killed,
// as for any other agent that runs out of time.
import type Docker from 'dockerode';
import { CappedLog } from './capped-log.ts';
import { exitCodeOf, startLoggedExec, type ExecSpec } from './exec.ts';
import { agentPhaseCommand } from './resource-limits.ts';
import type { InteractiveAgent, PhaseResult, ShellResult, ShellTerminal } from './types.ts';
import { timerDelayMs } from './timer-delay.ts';

export const DEFAULT_COMMAND_TIMEOUT_SEC = 600;
export const DEFAULT_COMMAND_OUTPUT_BYTES = 1024 * 1024;

// How long a policy may take to notice its aborted signal before the phase stops waiting for it.
const ABORT_GRACE_MS = 5000;
// `timeout` kills the command's process group; this is the host's backstop if even that hangs.
const HOST_BACKSTOP_SEC = 10;
// A background process the command started (`server &`) keeps the output stream open after the
// command itself has exited; the exec is polled so the turn ends when the command does.
const EXIT_POLL_MS = 200;
const DRAIN_MS = 100;

// The working directory is the only shell state that carries over between commands; it lives in
// the container's /tmp so that it is the agent's own state, not the host's.
const CWD_FILE = '/tmp/.envolve-cwd';
const PRELUDE = `cd "$(cat ${CWD_FILE} 2>/dev/null)" 2>/dev/null; trap 'pwd > ${CWD_FILE} 2>/dev/null' EXIT; eval "$1"`;

type TurnSpec = Pick<ExecSpec, 'user' | 'workingDir'> & { timeoutSec: number; maxOutputBytes: number; signal: AbortSignal };

async function runTurn(container: Docker.Container, command: string, spec: TurnSpec): Promise<ShellResult> {
  if (spec.signal.aborted) {
    return {
      output: "[envolve: the agent's wall-clock budget is spent; command not run]\n",
      outputTruncated: false,
      exitCode: null,
      durationMs: 0,
      timedOut: true,
    };
  }
  const started = Date.now();
  const log = new CappedLog(spec.maxOutputBytes);
  const { exec, stream } = await startLoggedExec(
    container,
    // GNU timeout runs the command in its own process group and kills the whole group.
    {
      cmd: agentPhaseCommand(['timeout', '-k', '2', String(spec.timeoutSec), 'bash', '-c', PRELUDE, 'bash', command], spec.user),
      user: spec.user,
      workingDir: spec.workingDir,
    },
    log,
  );

  let stoppedBy: 'budget' | 'backstop' | undefined;
  let streamEnded = false;
  const ended = new Promise<void>((resolve) => {
    const done = () => {
      streamEnded = true;
      resolve();
    };
    stream.on('end', done);
    stream.on('close', done);
    stream.on('error', done);
  });
  const stop = (why: 'budget' | 'backstop') => {
    stoppedBy ??= why;
    stream.destroy();
  };
  const onAbort = () => stop('budget');
  spec.signal.addEventListener('abort', onAbort, { once: true });
  const backstop = setTimeout(() => stop('backstop'), timerDelayMs(spec.timeoutSec + HOST_BACKSTOP_SEC));
  const poller = setInterval(() => {
    void exec.inspect().then(
      (info) => {
        if (!info.Running && !streamEnded) setTimeout(() => stream.destroy(), DRAIN_MS);
      },
      () => undefined,
    );
  }, EXIT_POLL_MS);
  try {
    await ended;
  } finally {
    clearInterval(poller);
    clearTimeout(backstop);
    spec.signal.removeEventListener('abort', onAbort);
  }
  const durationMs = Date.now() - started;
  const exitCode = stoppedBy ? null : await exitCodeOf(exec);
  // 124: timeout's TERM ended it; 137: the KILL that follows when TERM was ignored.
  const killedByTimeout = (exitCode === 124 || exitCode === 137) && durationMs >= spec.timeoutSec * 1000 - 100;
  const timedOut = stoppedBy !== undefined || killedByTimeout;
  let output = log.toString();
  if (stoppedBy === 'budget') output += "\n[envolve: the agent's wall-clock budget ran out during this command]\n";
  else if (timedOut) output += `\n[envolve: command exceeded its ${spec.timeoutSec}s timeout; killed]\n`;
  return { output, outputTruncated: log.truncated, exitCode: timedOut ? null : exitCode, durationMs, timedOut };
}

export async function runInteractivePhase(
  container: Docker.Container,
  agent: InteractiveAgent,
  spec: Pick<ExecSpec, 'user' | 'workingDir' | 'timeoutSec' | 'onTimeout'>,
): Promise<PhaseResult> {
  const started = Date.now();
  const transcript = new CappedLog();
  const budget = new AbortController();
  let graceTimer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<void>((resolve) => {
    budget.signal.addEventListener('abort', () => (graceTimer = setTimeout(resolve, ABORT_GRACE_MS)), { once: true });
  });
  const phaseTimer = setTimeout(() => {
    transcript.write(Buffer.from(`\n[envolve: phase exceeded its ${spec.timeoutSec}s budget; container killed]\n`));
    budget.abort();
    void spec.onTimeout().catch(() => undefined);
  }, timerDelayMs(spec.timeoutSec));

  const terminal: ShellTerminal = {
    run: async (command, opts) => {
      const result = await runTurn(container, command, {
        user: spec.user,
        workingDir: spec.workingDir,
        timeoutSec: opts?.timeoutSec ?? agent.commandTimeoutSec ?? DEFAULT_COMMAND_TIMEOUT_SEC,
        maxOutputBytes: agent.maxOutputBytes ?? DEFAULT_COMMAND_OUTPUT_BYTES,
        signal: budget.signal,
      });
      transcript.write(Buffer.from(`$ ${command}\n${result.output}${result.output.endsWith('\n') ? '' : '\n'}[exit ${result.exitCode ?? 'killed'}]\n`));
      return result;
    },
  };
  const driving = agent.drive(terminal, budget.signal);
  driving.catch(() => undefined); // after the budget, a late failure of the agent changes nothing
  try {
    await Promise.race([driving, graceOver]);
  } catch (err) {
    if (!budget.signal.aborted) throw err;
  } finally {
    clearTimeout(phaseTimer);
    clearTimeout(graceTimer);
  }
  const timedOut = budget.signal.aborted;
  return { exitCode: timedOut ? null : 0, durationMs: Date.now() - started, timedOut, log: transcript.toString(), logTruncated: transcript.truncated };
}
