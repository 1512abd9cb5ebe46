// Between the agent and the verifier, nothing the agent started may keep running: a background
// writer could overwrite the reward file after the tests wrote it. First an in-container
// `kill -9 -1` as root (fork-free, so it works even when a fork bomb holds every pid); if that
// cannot be confirmed, the container is stopped and started again, which ends every process while
// keeping the filesystem (only the /tmp tmpfs is lost).
import type Docker from 'dockerode';

const MAX_ZOMBIES = 16;
const SETTLE_LOOP_SEC = 3;

// Bash functions, builtins only: no fork is needed to kill or to count what is left. `count`
// sets live and zombies to the processes other than pid 1 and this shell ($BASHPID: a script
// runs in a subshell of pid 1, where $$ is 1). `settle` kills them all;
// a killed process may still show as running for a moment, so it retries for up to
// ${SETTLE_LOOP_SEC}s (EPOCHREALTIME: bash has no builtin sleep). Killed orphans are reaped by the
// supervisor (pid 1, bash); until then they are zombies that cannot act but hold pids, so only a
// few are tolerated. It returns 0 once nothing is left, 1 if something outlived the loop, 2 if too
// many zombies remain. Pid 1 (the supervisor) is out of reach of `kill -1` by design.
export const SETTLE_LOOP = `count() {
  shopt -s nullglob
  local p pid stat state
  live=0 zombies=0
  for p in /proc/[0-9]*; do
    pid=\${p#/proc/}
    ((pid == 1 || pid == BASHPID)) && continue
    { read -r stat < "$p/stat"; } 2>/dev/null || continue
    state=\${stat##*) }
    [[ \${state%% *} == Z ]] && zombies=$((zombies + 1)) || live=$((live + 1))
  done
}
settle() {
  local deadline=$((\${EPOCHREALTIME/./} + ${SETTLE_LOOP_SEC} * 1000000))
  while ((\${EPOCHREALTIME/./} < deadline)); do
    kill -9 -1 2>/dev/null
    count
    if ((live == 0)); then
      ((zombies > ${MAX_ZOMBIES})) && return 2
      return 0
    fi
  done
  return 1
}`;

// The settle's own budget on the host: the loop's, plus room for a loaded machine.
export const SETTLE_TIMEOUT_SEC = 15;

/** Ends every process in the container by stopping and starting it again (the filesystem stays). */
export async function restartContainer(container: Docker.Container): Promise<void> {
  await container.kill().catch(() => undefined);
  await container.wait();
  await container.start();
}
