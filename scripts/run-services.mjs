// Runs the dashboard, `envolve setup` and the workers in the foreground as one unit: their output is
// prefixed and interleaved, Ctrl-C stops all, and if the dashboard or the workers exit, or setup fails,
// the others are stopped. The dashboard starts at once (the database is migrated before this runs);
// setup (the base image, the example tasks, the demo lineage) runs beside it, and the workers start
// when it succeeds. Under `npm run up` the stage log is printed once the sign-in page answers.
import { spawn } from 'node:child_process';
import { register } from 'tsx/esm/api';

register();
const { appendStage, formatStages, readStages, stageLogPath } = await import('../cli/stage-log.ts');

const SETUP_ARGS = ['bin/envolve.mjs', 'setup', '--examples', 'examples/tasks', '--demo', 'seed-logs-awk'];
// How often the sign-in page is asked while the dashboard starts, and how long one answer may take: a
// process start-up, which no product budget bounds; the dashboard exiting stops the waiting.
const FIRST_PAGE_POLL_MS = 250;
const FIRST_PAGE_REQUEST_MS = 5_000;

const stageLog = stageLogPath();
let stopping = false;
let setupDone = false;
let firstPageAnswered = false;
const children = [];

// detached: a child has its own process group, so Ctrl-C reaches only this script, which sends
// each child one SIGTERM (the terminal's SIGINT as well would be a second signal, which forces
// the worker to exit without finishing its jobs). The children's stderr is a pipe, so their logs
// would be JSON lines: readable ones when a person watches.
// Only setup writes to the stage log: the dashboard's own migration on start (a child `envolve db migrate`)
// is not a stage of the start-up.
function start(name, args, onExit) {
  const logFormat = process.env.ENVOLVE_LOG_FORMAT || (process.stderr.isTTY ? 'pretty' : 'auto');
  const env = { ...process.env, ENVOLVE_LOG_FORMAT: logFormat };
  if (name !== 'setup') delete env.ENVOLVE_STAGE_LOG;
  const child = spawn('node', args, { stdio: ['ignore', 'pipe', 'pipe'], env, detached: true });
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
    if (!stopping) onExit(code, signal);
  });
  children.push(child);
  return child;
}

// A long-running service: its exit, whatever the reason, ends the unit.
function startService(name, args) {
  return start(name, args, (code, signal) => {
    process.stderr.write(`[${name}] exited (${signal ?? code}); stopping the others\n`);
    stop(code ?? 1);
  });
}

function printStages(note) {
  if (!stageLog) return;
  const startedMs = Number(process.env.ENVOLVE_UP_STARTED_MS);
  const total = Number.isFinite(startedMs) && startedMs > 0 ? Date.now() - startedMs : undefined;
  process.stderr.write(`\nStart-up stages (${stageLog}):\n${formatStages(readStages(stageLog), total)}\n${note}\n\n`);
}

function signInUrl() {
  const host = process.env.HOST || '127.0.0.1';
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${reachable}:${process.env.PORT || 3000}/sign-in`;
}

async function signInAnswers(url) {
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(FIRST_PAGE_REQUEST_MS) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function awaitFirstPage(startedMs) {
  const url = signInUrl();
  while (!stopping && !(await signInAnswers(url))) await new Promise((resolve) => setTimeout(resolve, FIRST_PAGE_POLL_MS));
  if (stopping) return;
  firstPageAnswered = true;
  if (stageLog) appendStage(stageLog, { stage: 'first page', status: 'ran', ms: Date.now() - startedMs });
  printStages(
    setupDone
      ? `${url} answers; the workers are running.`
      : `${url} answers; setup (base image, example tasks, demo lineage) is still running beside it, and this table is printed again when it ends.`,
  );
}

function stop(exitCode) {
  stopping = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const deadline = setTimeout(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }, 10_000);
  deadline.unref();
  Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode !== null ? null : new Promise((r) => c.on('exit', r))))).then(() =>
    process.exit(exitCode),
  );
}

const webStartedMs = Date.now();
startService('web', ['bin/envolve.mjs', 'web']);
start('setup', SETUP_ARGS, (code, signal) => {
  if (code !== 0) {
    process.stderr.write(`[setup] failed (${signal ?? code}); the lines above say why. Stopping the dashboard; run \`npm run up\` again once it is fixed.\n`);
    stop(code ?? 1);
    return;
  }
  setupDone = true;
  startService('worker', ['bin/envolve.mjs', 'worker']);
  if (firstPageAnswered) printStages('setup is done; the workers are starting.');
});
void awaitFirstPage(webStartedMs);

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
