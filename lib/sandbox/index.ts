export type * from './types.ts';
export { DockerSandbox } from './docker-sandbox.ts';
export { createDocker, dockerAvailable, DockerUnavailableError } from './docker.ts';
export { BaseImageUnavailableError, EnvironmentBuildError, ENV_IMAGE_REPO } from './env-image.ts';
export { BASE_IMAGE_TAG, BASE_PACKAGES, baseRecipeHash, ensureBaseImage, type BaseImage } from './base-image.ts';
export { DEFAULT_LIMITS } from './limits.ts';
export { DEFAULT_COMMAND_OUTPUT_BYTES, DEFAULT_COMMAND_TIMEOUT_SEC } from './interactive.ts';
export { BUNDLE_MOUNT, DEFAULT_CHECK_TIMEOUT_SEC, type CheckResult, type CheckSpec, type ChecksRequest, type ChecksResult } from './run-checks.ts';
