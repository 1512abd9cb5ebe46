// The Sandbox backed by a local (or DOCKER_HOST) Docker engine.
import type Docker from 'dockerode';
import type { TaskBundle } from '../env/bundle.ts';
import { createDocker } from './docker.ts';
import { buildEnvironmentImage } from './env-image.ts';
import { reapContainers } from './reaper.ts';
import { runChecks, type ChecksRequest, type ChecksResult } from './run-checks.ts';
import { runTrial } from './trial.ts';
import type { BuildOptions, BuildResult, ReapedContainer, ReapOptions, Sandbox, TrialRequest, TrialResult } from './types.ts';

export class DockerSandbox implements Sandbox {
  constructor(readonly docker: Docker = createDocker()) {}

  buildEnvironmentImage(bundle: TaskBundle, opts?: BuildOptions): Promise<BuildResult> {
    return buildEnvironmentImage(this.docker, bundle, opts);
  }

  runTrial(request: TrialRequest): Promise<TrialResult> {
    return runTrial(this.docker, request);
  }

  reapContainers(opts?: ReapOptions): Promise<ReapedContainer[]> {
    return reapContainers(this.docker, opts);
  }

  runChecks(request: ChecksRequest): Promise<ChecksResult> {
    return runChecks(this.docker, request);
  }
}
