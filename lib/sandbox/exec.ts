// Runs one command in a running container as a phase: output demuxed into a
// capped log, a wall-clock budget, and the exit code. On timeout it kills the
// whole container: processes a phase left behind (a fork bomb, a daemon)
// cannot be trusted to stop any other way.
import { PassThrough, type Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { CappedLog } from './capped-log.ts';
import type { PhaseResult } from './types.ts';

export interface ExecSpec {
  cmd: string[];
  user: string;
  workingDir: string;
  timeoutSec: number;
  onTimeout: () => Promise<void>; // must make the exec's stream end (kill the container)
  // Bytes for the command's stdin, then end of file: sent at once, or only once `afterOutput`
  // appeared in its output (the command says it is ready, e.g. the agent's processes are gone).
  input?: { data: Buffer; afterOutput?: string };
  // Resolves when the container stops: the phase ends then, instead of waiting on an exec whose
  // container is gone (under gVisor, a sandbox killed at its memory limit leaves its execs hanging).
  stopped?: Promise<void>;
}

const EXIT_CODE_POLL_MS = 50;
const EXIT_CODE_POLLS = 40;

export async function exitCodeOf(exec: Docker.Exec): Promise<number | null> {
  // The stream can end a moment before the engine records the exit code.
  for (let i = 0; i < EXIT_CODE_POLLS; i++) {
    const info = await exec.inspect();
    if (!info.Running) return info.ExitCode ?? null;
    await new Promise((resolve) => setTimeout(resolve, EXIT_CODE_POLL_MS));
  }
  return null;
}

// Starts a command in the container with stdout and stderr demuxed, as they interleave, into `log`.
export async function startLoggedExec(
  container: Docker.Container,
  spec: { cmd: string[]; user: string; workingDir: string; input?: ExecSpec['input'] },
  log: CappedLog,
): Promise<{ exec: Docker.Exec; stream: Duplex }> {
  const stdin = spec.input !== undefined;
  const exec = await container.exec({
    Cmd: spec.cmd,
    User: spec.user,
    WorkingDir: spec.workingDir,
    AttachStdin: stdin,
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = await exec.start({ hijack: true, stdin });
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => log.write(chunk));
  if (spec.input) sendInput(stream, sink, spec.input);
  container.modem.demuxStream(stream, sink, sink);
  return { exec, stream };
}

function sendInput(stream: Duplex, output: PassThrough, input: NonNullable<ExecSpec['input']>): void {
  const send = () => void stream.end(input.data);
  const marker = input.afterOutput;
  if (marker === undefined) return send();
  // The marker may arrive split across chunks: look in what came since the last look, plus a marker's length before.
  let seen = '';
  const watch = (chunk: Buffer) => {
    seen = (seen + chunk.toString('latin1')).slice(-(marker.length + chunk.length));
    if (!seen.includes(marker)) return;
    output.off('data', watch);
    send();
  };
  output.on('data', watch);
}

/** Runs a short command as root and returns its stdout as bytes (stderr is only for errors). */
export async function execBytes(container: Docker.Container, cmd: string[]): Promise<{ stdout: Buffer; stderr: string; exitCode: number | null }> {
  const exec = await container.exec({ Cmd: cmd, User: 'root', WorkingDir: '/', AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  const out: Buffer[] = [];
  const err = new CappedLog(64 * 1024);
  const stdout = new PassThrough().on('data', (chunk: Buffer) => out.push(chunk));
  const stderr = new PassThrough().on('data', (chunk: Buffer) => err.write(chunk));
  container.modem.demuxStream(stream, stdout, stderr);
  await new Promise<void>((resolve) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', resolve);
  });
  return { stdout: Buffer.concat(out), stderr: err.toString(), exitCode: await exitCodeOf(exec) };
}

export async function runPhase(container: Docker.Container, spec: ExecSpec): Promise<PhaseResult> {
  const started = Date.now();
  const log = new CappedLog();
  const { exec, stream } = await startLoggedExec(container, spec, log);

  let timedOut = false;
  const ended = new Promise<void>((resolve) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', resolve);
  });
  let containerStopped = false;
  void spec.stopped?.then(() => {
    if (timedOut || stream.destroyed || stream.readableEnded) return;
    containerStopped = true;
    log.write(Buffer.from('\n[envolve: the container stopped during this phase (killed at a limit, or its sandbox died)]\n'));
    stream.destroy();
  });
  const timer = setTimeout(() => {
    timedOut = true;
    log.write(Buffer.from(`\n[envolve: phase exceeded its ${spec.timeoutSec}s budget; container killed]\n`));
    // If killing does not end the stream promptly, stop waiting for it anyway.
    void spec
      .onTimeout()
      .catch(() => undefined)
      .finally(() => setTimeout(() => stream.destroy(), 5000).unref());
  }, spec.timeoutSec * 1000);
  try {
    await ended;
  } finally {
    clearTimeout(timer);
  }
  const exitCode = timedOut || containerStopped ? null : await exitCodeOf(exec);
  const result: PhaseResult = { exitCode, durationMs: Date.now() - started, timedOut, log: log.toString(), logTruncated: log.truncated };
  return containerStopped ? { ...result, containerStopped } : result;
}

// A short command whose output is wanted as a string (setup, probes).
export async function execOutput(container: Docker.Container, cmd: string[]): Promise<PhaseResult> {
  return runPhase(container, {
    cmd,
    user: 'root',
    workingDir: '/',
    timeoutSec: 30,
    onTimeout: async () => {
      await container.kill();
    },
  });
}
