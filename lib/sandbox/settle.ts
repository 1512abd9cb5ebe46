// Between the agent and the verifier, nothing the agent started may keep
// running: a background writer could overwrite the reward file after the
// tests wrote it. First an in-container `kill -9 -1` as root (fork-free, so it
// works even when a fork bomb holds every pid); if that cannot be confirmed,
// the container is stopped and started again, which ends every process while
// keeping the filesystem (only the /tmp tmpfs is lost).
import type Docker from 'dockerode';
import { runPhase } from './exec.ts';

const MAX_ZOMBIES = 16;
const SETTLE_LOOP_SEC = 3;

// Bash builtins only: no fork is needed to kill or to count what is left. A
// killed process may still show as running for a moment, so the loop retries
// for up to ${SETTLE_LOOP_SEC}s (EPOCHREALTIME: bash has no builtin sleep).
// Killed orphans stay as zombies (the container's init, sleep, never reaps
// them); they cannot act, but they hold pids, so only a few are tolerated.
const KILL_ALL_BUT_INIT = `shopt -s nullglob
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
  ((live == 0)) && exit $((zombies > ${MAX_ZOMBIES} ? 2 : 0))
done
exit 1`;

const SETTLE_TIMEOUT_SEC = 15;

export type SettleOutcome = 'killed-in-place' | 'restarted';

export async function stopAgentProcesses(container: Docker.Container): Promise<SettleOutcome> {
  let restartNeeded = false;
  try {
    const res = await runPhase(container, {
      cmd: ['bash', '-c', KILL_ALL_BUT_INIT],
      user: 'root',
      workingDir: '/',
      timeoutSec: SETTLE_TIMEOUT_SEC,
      onTimeout: async () => {
        restartNeeded = true;
      },
    });
    if (res.exitCode === 0 && !restartNeeded) return 'killed-in-place';
  } catch {
    // the exec could not start (no free pid): restart instead
  }
  await container.kill().catch(() => undefined);
  await container.wait();
  await container.start();
  return 'restarted';
}
