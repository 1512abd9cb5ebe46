// Builds the offline toolchain bases (recipes in toolchains.ts) like any task environment (same
// build network setting, same content-addressed cache), then tags them envolve/toolchain:<name>.
import type Docker from 'dockerode';
import type { TaskBundle } from '../bundle/index.ts';
import { buildEnvironmentImage } from './env-image.ts';
import { toolchainDockerfile, toolchainTag, TOOLCHAIN_REPO, type ToolchainName } from './toolchains.ts';
import type { BuildResult } from './types.ts';

export interface ToolchainImage extends BuildResult {
  name: ToolchainName;
  toolchainTag: string; // envolve/toolchain:<name>
}

export async function ensureToolchainImage(docker: Docker, name: ToolchainName): Promise<ToolchainImage> {
  const bundle: TaskBundle = {
    name: `toolchain-${name}`,
    files: [{ path: 'environment/Dockerfile', content: Buffer.from(toolchainDockerfile(name)), executable: false }],
  };
  const build = await buildEnvironmentImage(docker, bundle);
  await docker.getImage(build.imageId).tag({ repo: TOOLCHAIN_REPO, tag: name });
  return { ...build, name, toolchainTag: toolchainTag(name) };
}
