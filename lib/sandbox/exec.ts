// One exec in a running container: output demuxed into a capped log, a wall-clock budget, and the
// exit code. The rubric checks and an interactive agent's commands run this way (a trial's own
// steps run in its session, session.ts). On timeout it kills the whole container: processes an
// exec left behind (a fork bomb, a daemon) cannot be trusted to stop any other way.
import { PassThrough, type Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { CappedLog } from './capped-log.ts';
import type { PhaseResult } from './types.ts';
import { timerDelayMs } from './timer-delay.ts';

export interface ExecSpec {
  cmd: string[];
  user: string;
  workingDir: string;
  timeoutSec: number;
  onTimeout: () => Promise<void>; // must make the exec's stream end (kill the container)
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
  spec: Pick<ExecSpec, 'cmd' | 'user' | 'workingDir'>,
  log: CappedLog,
): Promise<{ exec: Docker.Exec; stream: Duplex }> {
  const exec = await container.exec({ Cmd: spec.cmd, User: spec.user, WorkingDir: spec.workingDir, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => log.write(chunk));
  container.modem.demuxStream(stream, sink, sink);
  return { exec, stream };
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
  const timer = setTimeout(() => {
    timedOut = true;
    log.write(Buffer.from(`\n[envolve: phase exceeded its ${spec.timeoutSec}s budget; container killed]\n`));
    // If killing does not end the stream promptly, stop waiting for it anyway.
    void spec
      .onTimeout()
      .catch(() => undefined)
      .finally(() => setTimeout(() => stream.destroy(), 5000).unref());
  }, timerDelayMs(spec.timeoutSec));
  try {
    await ended;
  } finally {
    clearTimeout(timer);
  }
  const exitCode = timedOut ? null : await exitCodeOf(exec);
  return { exitCode, durationMs: Date.now() - started, timedOut, log: log.toString(), logTruncated: log.truncated };
}
