// Offline toolchain bases: the local envolve base plus a language toolchain from Debian packages
// (the mirror the base came from), so a task whose registry image is mapped to a local one keeps
// its toolchain instead of silently losing it. Built like any task environment (same build
// network setting, same content-addressed cache), then tagged envolve/toolchain:<name>.
import type Docker from 'dockerode';
import type { TaskBundle } from '../env/bundle.ts';
import { BASE_IMAGE_TAG } from './base-image.ts';
import { buildEnvironmentImage } from './env-image.ts';
import type { BuildResult } from './types.ts';

export const TOOLCHAIN_REPO = 'envolve/toolchain';

export const TOOLCHAINS = {
  python: ['python3-pip', 'python3-pytest', 'python3-venv'],
  go: ['golang-go'],
  rust: ['rustc', 'cargo'],
} as const;
export type ToolchainName = keyof typeof TOOLCHAINS;
export const TOOLCHAIN_NAMES = Object.keys(TOOLCHAINS) as ToolchainName[];

export function toolchainDockerfile(name: ToolchainName): string {
  return [
    `FROM ${BASE_IMAGE_TAG}`,
    'USER root',
    `RUN apt-get update && apt-get install -y --no-install-recommends ${TOOLCHAINS[name].join(' ')} && rm -rf /var/lib/apt/lists/*`,
    '',
  ].join('\n');
}

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
  return { ...build, name, toolchainTag: `${TOOLCHAIN_REPO}:${name}` };
}
