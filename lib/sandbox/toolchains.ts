// Offline toolchain bases: the local envolve base plus a language toolchain from Debian packages
// (the mirror the base came from), so a task whose registry image is mapped to a local one keeps
// its toolchain instead of silently losing it. The recipes, and which registry images each one
// stands in for under --map-base-image; lib/sandbox/toolchain-images.ts builds them.
import { mappedImageFor, parseReference, type BaseImageMapping } from './base-image-map.ts';
import { BASE_IMAGE_TAG } from './base-image.ts';

export const TOOLCHAIN_REPO = 'envolve/toolchain';

export const TOOLCHAINS = {
  python: ['python3-pip', 'python3-pytest', 'python3-venv'],
  go: ['golang-go'],
  rust: ['rustc', 'cargo'],
} as const;
export type ToolchainName = keyof typeof TOOLCHAINS;
export const TOOLCHAIN_NAMES = Object.keys(TOOLCHAINS) as ToolchainName[];

// The official images (Docker Hub's library names) each toolchain stands in for.
const TOOLCHAIN_FOR_IMAGE: Record<string, ToolchainName> = { python: 'python', golang: 'go', rust: 'rust' };

// The python:* images let pip install into the system Python; Debian marks its Python as
// externally managed (PEP 668), which a task written for python:* does not expect.
const AFTER_INSTALL: Partial<Record<ToolchainName, string>> = { python: 'RUN rm -f /usr/lib/python3*/EXTERNALLY-MANAGED' };

export function toolchainDockerfile(name: ToolchainName): string {
  return [
    `FROM ${BASE_IMAGE_TAG}`,
    'USER root',
    `RUN apt-get update && apt-get install -y --no-install-recommends ${TOOLCHAINS[name].join(' ')} && rm -rf /var/lib/apt/lists/*`,
    ...(AFTER_INSTALL[name] ? [AFTER_INSTALL[name]] : []),
    '',
  ].join('\n');
}

export function toolchainTag(name: ToolchainName): string {
  return `${TOOLCHAIN_REPO}:${name}`;
}

// The toolchain a FROM reference's image names, if it is one of the official language images.
export function toolchainFor(reference: string): ToolchainName | undefined {
  return TOOLCHAIN_FOR_IMAGE[parseReference(reference).name];
}

// The local image a FROM this machine lacks builds on: the one the mapping names for it, else
// under the blanket choice the matching toolchain image (python, golang, rust) or the plain base.
export function mappingTargetFor(mapping: BaseImageMapping, reference: string): string | undefined {
  const named = mappedImageFor(mapping, reference);
  if (named || !mapping.unmatchedToBase) return named;
  const toolchain = toolchainFor(reference);
  return toolchain ? toolchainTag(toolchain) : BASE_IMAGE_TAG;
}
