// Between the agent and the verifier, nothing the agent started may keep
// running: a background writer could overwrite the reward file after the
// tests wrote it. First an in-container `kill -9 -1` as root (fork-free, so it
// works even when a fork bomb holds every pid); if that cannot be confirmed,
// the container is stopped and started again, which ends every process while
// keeping the filesystem (only the /tmp tmpfs is lost).
import type Docker from 'dockerode';
import { BUILTIN_PROBE } from './containment.ts';
import { runPhase, type ExecSpec } from './exec.ts';

const MAX_ZOMBIES = 16;
const SETTLE_LOOP_SEC = 3;

// Bash builtins only: no fork is needed to kill or to count what is left. A
// killed process may still show as running for a moment, so the loop retries
// for up to ${SETTLE_LOOP_SEC}s (EPOCHREALTIME: bash has no builtin sleep).
// Killed orphans stay as zombies (the container's init, sleep, never reaps
// them); they cannot act, but they hold pids, so only a few are tolerated.
// `thenRun` runs once nothing is left (forks are free again), in the same exec: one round trip.
// The cgroup counters are read first, fork-free, while the agent's processes still exist (a
// fork bomb at the pids limit shows as such) and in the same exec.
const killAllButInit = (thenRun: string) => `shopt -s nullglob
${BUILTIN_PROBE}
deadline=$((\${EPOCHREALTIME/./} + ${SETTLE_LOOP_SEC} * 1000000))
while ((\${EPOCHREALTIME/./} < deadline)); do
  kill -9 -1 2>/dev/null
  live=0 zombies=0
  for p in /proc/[0-9]*; do
    pid=\${p#/proc/}
    ((pid == 1 || pid == $$)) && continue
    { read -r stat < "$p/stat"; } 2>/dev/null || continue
    state=\${stat##*) }
    [[ \${state%% *} == Z ]] && zombies=$((zombies + 1)) || live=$((live + 1))
  done
  if ((live == 0)); then
    ((zombies > ${MAX_ZOMBIES})) && exit 2
    ${thenRun}
    exit 0
  fi
done
exit 1`;

const SETTLE_TIMEOUT_SEC = 15;

export type SettleOutcome = 'killed-in-place' | 'restarted';

export interface SettleOptions {
  thenRun?: string; // a shell snippet run once nothing the agent started is left
  input?: ExecSpec['input']; // stdin for thenRun, sent only once it prints input.afterOutput
  beforeRestart?: () => Promise<void>; // e.g. read the counters a restart would reset
}

/**
 * Ends every process but the container's init. Killed in place, `thenRun` has run after the kill
 * in the same exec and `log` is the exec's output (the counters, then thenRun's); restarted, it
 * has not run.
 */
export async function stopAgentProcesses(container: Docker.Container, opts: SettleOptions = {}): Promise<{ outcome: SettleOutcome; log: string }> {
  let restartNeeded = false;
  try {
    const res = await runPhase(container, {
      cmd: ['bash', '-c', killAllButInit(opts.thenRun ?? '')],
      user: 'root',
      workingDir: '/',
      timeoutSec: SETTLE_TIMEOUT_SEC,
      onTimeout: async () => {
        restartNeeded = true;
      },
      input: opts.input,
    });
    if (res.exitCode === 0 && !restartNeeded) return { outcome: 'killed-in-place', log: res.log };
  } catch {
    // the exec could not start (no free pid): restart instead
  }
  await opts.beforeRestart?.();
  await container.kill().catch(() => undefined);
  await container.wait();
  await container.start();
  return { outcome: 'restarted', log: '' };
}
