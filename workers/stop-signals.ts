// How a process that runs sandboxes stops on SIGINT/SIGTERM: the first signal stops new work
// (`stop`) and drains the warm pools at once (their ready containers are removed; in-flight
// trials still finish); a second signal forces an exit after the pools are drained, within a
// bound. A SIGKILL leaves containers behind that the reaper takes (their owner is gone).
import { drainAllWarmPools } from '../lib/sandbox/index.ts';

const FORCED_DRAIN_MS = 10_000;

export function stopOnSignals(stop: () => void, log: (message: string) => void): () => void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      log(`${signal} again: removing the warm pools and exiting`);
      const deadline = setTimeout(() => process.exit(130), FORCED_DRAIN_MS);
      void drainAllWarmPools().finally(() => {
        clearTimeout(deadline);
        process.exit(130);
      });
      return;
    }
    signalled = true;
    log(`${signal}: finishing in-flight jobs and removing the warm pools (send again to force)`);
    stop();
    void drainAllWarmPools().catch((err: Error) => log(`warm pool: ${err.message}`));
  };
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  return () => void process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
}
