export type * from './types.ts';
export { DockerSandbox } from './docker-sandbox.ts';
export { createDocker, dockerAvailable } from './docker.ts';
export { removeOwnContainers, rethrowIfStopping, stopCreatingSandboxes } from './stopping.ts';
export { EnvironmentBuildError } from './env-image.ts';
export { BASE_IMAGE_TAG, ensureBaseImage } from './base-image.ts';
export { configuredCeilings, type ResourceUses, useOf } from './ceilings.ts';
export { parseRewardJson, parseRewardTxt } from './reward.ts';
export { DEFAULT_CHECK_TIMEOUT_SEC, type CheckResult, type CheckSpec, type ChecksResult } from './run-checks.ts';
export { parseDockerHost } from './docker-hosts.ts';
export { DockerHostPool } from './host-pool.ts';
export { withBaseImages } from './mapped-sandbox.ts';
export { type BaseImageMapping, baseImageMappingSchema, mergeMappings, BASE_IMAGE_FLAG, MAP_ALL_FLAG, mappingFromFlags } from './base-image-map.ts';
export {
  type ResolvedSandboxRuntime,
  configuredSandboxRuntime,
  environmentRuntime,
  resolveSandboxRuntime,
  withSandboxRuntime,
  type SandboxRuntime,
  describeSandboxRuntime,
  parseSandboxRuntime,
  SANDBOX_RUNTIMES,
  isSandboxRuntime,
  registeredRuntimes,
} from './runtime.ts';
export { composeFileOf, taskComposeSpec, parseCompose } from './compose.ts';
export { describeNeed, fetchNeeds } from './fetch-needs.ts';
export {
  buildMirrorsSchema,
  mirrorsRecord,
  type BuildMirrors,
  resolveBuildMirrors,
  shownBuildMirrors,
  type ShownBuildMirrors,
  describeBuildMirrors,
  buildMirrorsSetting,
} from './build-mirrors.ts';
export { withBuildMirrors } from './mapped-sandbox.ts';
export { isDeterministicBuildFailure } from './env-image.ts';
export { drainAllWarmPools, warmPoolFor } from './warm-pool.ts';
export { imageInventory } from './image-inventory.ts';
export { ensureToolchainImage } from './toolchain-images.ts';
export { TOOLCHAIN_NAMES, TOOLCHAIN_REPO, TOOLCHAINS, type ToolchainName } from './toolchains.ts';
export { NO_CONTAINER_LOG, Session, SUPERVISED_MAIN_PROCESS } from './session.ts';
