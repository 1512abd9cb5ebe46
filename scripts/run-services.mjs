// Runs the dashboard and the workers in the foreground as one unit: their output is
// prefixed and interleaved, Ctrl-C stops both, and if either exits the other is stopped.
import { spawn } from 'node:child_process';

// `envolve web` serves on HOST:PORT (default 127.0.0.1:3000), read from the environment.
const services = [
  { name: 'web', cmd: 'node', args: ['bin/envolve.mjs', 'web'] },
  { name: 'worker', cmd: 'node', args: ['bin/envolve.mjs', 'worker'] },
];

let stopping = false;
const children = services.map(({ name, cmd, args }) => {
  // detached: a child has its own process group, so Ctrl-C reaches only this script, which sends
  // each child one SIGTERM (the terminal's SIGINT as well would be a second signal, which forces
  // the worker to exit without finishing its jobs). The children's stderr is a pipe, so their logs
  // would be JSON lines: readable ones when a person watches.
  const logFormat = process.env.ENVOLVE_LOG_FORMAT || (process.stderr.isTTY ? 'pretty' : 'auto');
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ENVOLVE_LOG_FORMAT: logFormat }, detached: true });
  const prefix = (stream, out) => {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) out.write(`[${name}] ${line}\n`);
    });
  };
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`[${name}] exited (${signal ?? code}); stopping the others\n`);
      stop(code ?? 1);
    }
  });
  return child;
});

function stop(exitCode) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  const deadline = setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  }, 10_000);
  deadline.unref();
  Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.on('exit', r))))).then(() => process.exit(exitCode));
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
