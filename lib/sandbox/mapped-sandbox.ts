// A sandbox whose every build uses one base-image mapping, or one set of build mirrors (a
// lineage's): the evolution loops, the synthesiser's oracle runs and probes all build through it
// without each passing it on.
import type { TaskBundle } from '../bundle/index.ts';
import { mergeMappings, type BaseImageMapping } from './base-image-map.ts';
import { resolveBuildMirrors, type BuildMirrors } from './build-mirrors.ts';
import type { BuildOptions, BuildResult, Sandbox } from './types.ts';

export function withBaseImages(sandbox: Sandbox, baseImages: BaseImageMapping | undefined): Sandbox {
  if (!baseImages) return sandbox;
  return {
    buildEnvironmentImage: (bundle: TaskBundle, opts: BuildOptions = {}): Promise<BuildResult> =>
      sandbox.buildEnvironmentImage(bundle, { ...opts, baseImages: mergeMappings(baseImages, opts.baseImages) }),
    runTrial: (request) => sandbox.runTrial(request),
    reapContainers: (opts) => sandbox.reapContainers(opts),
    runChecks: (request) => sandbox.runChecks(request),
  };
}

// The lineage's own mirrors replace the deployment's; without them the build reads the settings.
export function withBuildMirrors(sandbox: Sandbox, mirrors: BuildMirrors | undefined): Sandbox {
  if (!mirrors) return sandbox;
  return {
    buildEnvironmentImage: (bundle: TaskBundle, opts: BuildOptions = {}): Promise<BuildResult> =>
      sandbox.buildEnvironmentImage(bundle, { ...opts, mirrors: resolveBuildMirrors(mirrors) }),
    runTrial: (request) => sandbox.runTrial(request),
    reapContainers: (opts) => sandbox.reapContainers(opts),
    runChecks: (request) => sandbox.runChecks(request),
  };
}
