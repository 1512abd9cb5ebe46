export type * from './types.ts';
export { DockerSandbox } from './docker-sandbox.ts';
export { createDocker, dockerAvailable, DockerUnavailableError } from './docker.ts';
export { removeOwnContainers, rethrowIfStopping, SandboxStoppingError, sandboxesStopping, stopCreatingSandboxes } from './stopping.ts';
export { BaseImageUnavailableError, EnvironmentBuildError, ENV_IMAGE_REPO } from './env-image.ts';
export { BASE_IMAGE_TAG, BASE_PACKAGES, baseRecipeHash, ensureBaseImage, type BaseImage } from './base-image.ts';
export { DEFAULT_LIMITS } from './resource-limits.ts';
export { configuredCeilings, type ResourceUses, useOf } from './ceilings.ts';
export { parseRewardJson, parseRewardTxt } from './reward.ts';
export { DEFAULT_COMMAND_OUTPUT_BYTES, DEFAULT_COMMAND_TIMEOUT_SEC } from './interactive.ts';
export { BUNDLE_MOUNT, DEFAULT_CHECK_TIMEOUT_SEC, type CheckResult, type CheckSpec, type ChecksRequest, type ChecksResult } from './run-checks.ts';
export { DEFAULT_HOST_CAPACITY, dockerFor, parseDockerHost, type DockerHostSpec } from './docker-hosts.ts';
export { DockerHostPool, NoHealthyDockerHostError } from './host-pool.ts';
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
