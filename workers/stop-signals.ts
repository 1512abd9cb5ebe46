// How a process that runs sandboxes stops on SIGINT/SIGTERM. The first signal stops new work
// (`stop`: the queue claims no more jobs and aborts the in-flight ones), refuses every new
// container, and removes the warm pools and every container this process made, in-flight trials
// included: a stopping process leaves nothing, and an interrupted job goes back to the queue, whose
// retry redoes it. A second signal exits once that removal is done, within a bound. A SIGKILL leaves
// containers behind that the reaper takes (their owner is gone).
import { drainAllWarmPools, removeOwnContainers, stopCreatingSandboxes } from '../lib/sandbox/index.ts';

// How long a forced exit waits for the removal: one `docker rm -f` round for the process's containers.
const FORCED_DRAIN_MS = 10_000;

export function stopOnSignals(stop: () => void, log: (message: string) => void): () => void {
  let signalled = false;
  let removal: Promise<void> = Promise.resolve();
  const removeEverything = async () => {
    await drainAllWarmPools().catch((err: Error) => log(`warm pool: ${err.message}`));
    const removed = await removeOwnContainers().catch((err: Error) => (log(`removing this process's containers: ${err.message}`), 0));
    if (removed > 0) log(`removed ${removed} sandbox container(s) this process made`);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      log(`${signal} again: exiting once this process's containers are removed`);
      const deadline = setTimeout(() => process.exit(130), FORCED_DRAIN_MS);
      void removal.finally(() => {
        clearTimeout(deadline);
        process.exit(130);
      });
      return;
    }
    signalled = true;
    log(`${signal}: stopping; no new sandbox, and this process's containers are removed (interrupted jobs go back to the queue; send again to force)`);
    stopCreatingSandboxes(`the process received ${signal}`);
    stop();
    removal = removeEverything();
  };
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  return () => void process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
}
