// Run by stop-leaves-nothing.test.ts as a child process: a worker in miniature under a busy burst.
// It stops like `envolve worker` (stopOnSignals), keeps three trials with long agents in flight and
// then starts one more at a time, each once the one before has its container running, as queued
// jobs would, until it is told to stop: so at most one container creation is under way at any
// moment. It prints one JSON line once three containers run, and a second with how each trial
// ended once everything settled.
import { DockerSandbox, type TrialRequest } from '../../lib/sandbox/index.ts';
import { ownerLabel } from '../../lib/sandbox/owner.ts';
import { stopOnSignals } from '../../workers/stop-signals.ts';
import { helloTask } from './fixtures.ts';

const imageId = process.argv[2]!;
const sandbox = new DockerSandbox();
const stop = new AbortController();
stopOnSignals(
  () => stop.abort(),
  (m) => process.stderr.write(`${m}\n`),
);

const request: TrialRequest = {
  bundle: helloTask(),
  imageId,
  agent: { kind: 'script', script: 'sleep 300' },
  agentTimeoutSec: 600,
  verifierTimeoutSec: 60,
  labels: { 'envolve.test': 'busy-stop' },
};
const outcomes: string[] = [];
const trials: Promise<void>[] = [];
const start = () =>
  trials.push(
    sandbox.runTrial(request).then(
      (result) => void outcomes.push(`finished: ${result.status}`),
      (err: Error) => void outcomes.push(`${err.name}: ${err.message.split('\n')[0]}`),
    ),
  );

const owner = ownerLabel();
const running = async () => (await sandbox.docker.listContainers({ filters: { label: [`envolve.owner=${owner}`], status: ['running'] } })).length;
// A trial that ends before the stop is a failure of the set-up: said, and the child exits, rather
// than a loop starting trial after trial.
const startAndWait = async (count: number) => {
  start();
  while (!stop.signal.aborted && outcomes.length === 0 && (await running()) < count) await new Promise((resolve) => setTimeout(resolve, 50));
  if (outcomes.length > 0 && !stop.signal.aborted) {
    process.stdout.write(`${JSON.stringify({ error: 'a trial ended before the stop', outcomes })}\n`);
    process.exit(1);
  }
};
for (let i = 1; i <= 3; i++) await startAndWait(i);
process.stdout.write(`${JSON.stringify({ owner })}\n`);
while (!stop.signal.aborted) await startAndWait(trials.length + 1);
await Promise.all(trials);
process.stdout.write(`${JSON.stringify({ outcomes })}\n`);
