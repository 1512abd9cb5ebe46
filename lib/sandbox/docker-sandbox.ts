// The Sandbox backed by a local (or DOCKER_HOST) Docker engine.
import type Docker from 'dockerode';
import type { TaskBundle } from '../bundle/index.ts';
import { createDocker } from './docker.ts';
import { composeFileOf, parseCompose, reapTrialNetworks, startServices } from './compose.ts';
import { buildEnvironmentImage, sidecarImagesOf } from './env-image.ts';
import { reapContainers } from './reaper.ts';
import { runChecks, type ChecksRequest, type ChecksResult } from './run-checks.ts';
import { describeSandboxRuntime, sandboxRuntimeFor } from './runtime.ts';
import { runTrial } from './trial.ts';
import { sandboxesStopping, SandboxStoppingError } from './stopping.ts';
import { timeoutsWithinCeilings } from './ceilings.ts';
import type { BuildOptions, BuildResult, ReapedContainer, ReapOptions, Sandbox, TrialRequest, TrialResult } from './types.ts';

export class DockerSandbox implements Sandbox {
  constructor(readonly docker: Docker = createDocker()) {}

  buildEnvironmentImage(bundle: TaskBundle, opts?: BuildOptions): Promise<BuildResult> {
    return buildEnvironmentImage(this.docker, bundle, opts);
  }

  // A multi-container task's sidecars start on a per-trial internal network before the agent and
  // are removed with the trial.
  // Every trial's phase budgets are within the deployment's ceilings, whoever made the request.
  async runTrial(asked: TrialRequest): Promise<TrialResult> {
    return notInterrupted(await this.runTrialOnce(timeoutsWithinCeilings(asked)));
  }

  private async runTrialOnce(request: TrialRequest): Promise<TrialResult> {
    const compose = composeFileOf(request.bundle);
    if (!compose) return runTrial(this.docker, request);
    const spec = parseCompose(compose.path, compose.text);
    if (!spec.ok) throw new Error(`refused: ${spec.reason}`);
    // runsc is registered with --network=none, so a gVisor main container could not reach its sidecars.
    const resolved = sandboxRuntimeFor(request.runtime, request.bundle.files);
    if (resolved.runtime === 'runsc') {
      throw new Error(
        `refused: ${compose.path}: multi-container tasks run under runc only (runsc is registered without networking), ` +
          `and this trial's runtime is ${describeSandboxRuntime(resolved)}`,
      );
    }
    const services = await startServices(this.docker, spec, request, await sidecarImagesOf(this.docker, request.imageId));
    let result: TrialResult | undefined;
    try {
      result = await runTrial(this.docker, { ...request, network: services.network });
      return result;
    } finally {
      await services.teardown(result?.containerId);
    }
  }

  async reapContainers(opts?: ReapOptions): Promise<ReapedContainer[]> {
    const reaped = await reapContainers(this.docker, opts);
    await reapTrialNetworks(this.docker, { now: opts?.now });
    return reaped;
  }

  async runChecks(request: ChecksRequest): Promise<ChecksResult> {
    return notInterrupted(await runChecks(this.docker, request));
  }
}

// A result that came back while the process was stopping may be one whose container the stop
// removed: it says nothing about the environment, so it is not returned as a verdict.
function notInterrupted<T>(result: T): T {
  const stopping = sandboxesStopping();
  if (stopping) throw new SandboxStoppingError(stopping);
  return result;
}
