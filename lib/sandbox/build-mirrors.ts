// Package mirrors for image builds. A lab builds behind a proxy and internal mirrors (devpi or
// Artifactory for Python, a Go proxy, an npm registry); a task's Dockerfile names none of them.
// The mirrors reach the build as build arguments declared after every FROM of the Dockerfile the
// engine is sent (pip, uv, go, npm, curl and apt read them from the environment), and a CA
// bundle as a file in the build context. The task's own files, its content hash and the image
// tag stay what they were: a mirror serves the same packages (`--require-hashes` checks it).
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { BUILD_MIRROR_FIELDS, settings, type Settings } from '../config/index.ts';
import { parseFromLines } from './dockerfile-from.ts';
import type { TarEntry } from '../bundle/index.ts';

export interface BuildMirrors {
  pipIndexUrl?: string;
  pipFindLinks?: string;
  goProxy?: string;
  npmRegistry?: string;
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
  caBundle?: string; // a PEM file on this machine
}

// The settings that set each mirror (named in messages and in the README).
export const MIRROR_SETTINGS: Record<keyof BuildMirrors, string> = {
  pipIndexUrl: 'ENVOLVE_BUILD_PIP_INDEX_URL',
  pipFindLinks: 'ENVOLVE_BUILD_PIP_FIND_LINKS',
  goProxy: 'ENVOLVE_BUILD_GOPROXY',
  npmRegistry: 'ENVOLVE_BUILD_NPM_REGISTRY',
  httpProxy: 'ENVOLVE_BUILD_HTTP_PROXY',
  httpsProxy: 'ENVOLVE_BUILD_HTTPS_PROXY',
  noProxy: 'ENVOLVE_BUILD_NO_PROXY',
  caBundle: 'ENVOLVE_BUILD_CA_BUNDLE',
};

export function buildMirrorsSetting(s: Settings = settings()): BuildMirrors {
  return Object.fromEntries(Object.entries(s.sandbox.mirrors).filter(([, v]) => v !== undefined)) as BuildMirrors;
}

// A lineage's own mirrors, each field validated as its setting is. They replace the deployment's
// set as a whole (a lineage behind another mirror need not inherit the deployment's proxy).
export const buildMirrorsSchema = z
  .object({
    pipIndexUrl: BUILD_MIRROR_FIELDS.pipIndexUrl.optional(),
    pipFindLinks: BUILD_MIRROR_FIELDS.pipFindLinks.optional(),
    goProxy: BUILD_MIRROR_FIELDS.goProxy.optional(),
    npmRegistry: BUILD_MIRROR_FIELDS.npmRegistry.optional(),
    httpProxy: BUILD_MIRROR_FIELDS.httpProxy.optional(),
    httpsProxy: BUILD_MIRROR_FIELDS.httpsProxy.optional(),
    noProxy: BUILD_MIRROR_FIELDS.noProxy.optional(),
    caBundle: BUILD_MIRROR_FIELDS.caBundle.optional(),
  })
  .strict()
  .refine((m) => Object.values(m).some((v) => v !== undefined), { error: 'name at least one mirror' });

// Where a build's mirrors came from: the ENVOLVE_BUILD_* settings or the lineage it builds for.
export type MirrorsSource = 'deployment' | 'lineage';

export interface ResolvedBuildMirrors {
  mirrors: BuildMirrors;
  source: MirrorsSource;
}

/** A lineage's own mirrors when it has them, else the deployment's. */
export function resolveBuildMirrors(lineage: BuildMirrors | undefined, deployment: BuildMirrors = buildMirrorsSetting()): ResolvedBuildMirrors {
  return lineage ? { mirrors: lineage, source: 'lineage' } : { mirrors: deployment, source: 'deployment' };
}

// The mirrors a lineage's builds go through as a person or a report sees them: by setting name,
// passwords left out.
export interface ShownBuildMirrors {
  mirrors: Record<string, string>;
  source: MirrorsSource;
}

export function shownBuildMirrors({ mirrors, source }: ResolvedBuildMirrors): ShownBuildMirrors {
  return { mirrors: mirrorsRecord(mirrors), source };
}

export function describeBuildMirrors({ mirrors, source }: ShownBuildMirrors): string {
  const shown = Object.entries(mirrors).map(([name, value]) => `${name}=${value}`);
  const what = shown.length ? shown.join(' ') : 'none';
  return source === 'lineage' ? `${what} (the lineage's own)` : `${what} (the deployment's settings)`;
}

// Where the CA bundle goes in the build context and in the build's filesystem.
export const CA_CONTEXT_PATH = '.envolve-build-ca.pem';
const CA_IMAGE_PATH = '/usr/local/share/envolve-build-ca.pem';

function hostsOf(...urls: Array<string | undefined>): string {
  const hosts = urls.flatMap((u) => (u?.startsWith('http://') ? [new URL(u).hostname] : []));
  return [...new Set(hosts)].join(' ');
}

// The variables each tool reads. Proxies go in both cases: curl reads only lower-case http_proxy.
export function mirrorBuildArgs(m: BuildMirrors): Record<string, string> {
  const args: Record<string, string | undefined> = {
    PIP_INDEX_URL: m.pipIndexUrl,
    UV_INDEX_URL: m.pipIndexUrl,
    PIP_FIND_LINKS: m.pipFindLinks,
    UV_FIND_LINKS: m.pipFindLinks,
    // pip ignores a plain-http index unless told to trust its host (loopback it trusts already).
    PIP_TRUSTED_HOST: hostsOf(m.pipIndexUrl, m.pipFindLinks) || undefined,
    GOPROXY: m.goProxy,
    npm_config_registry: m.npmRegistry,
    HTTP_PROXY: m.httpProxy,
    http_proxy: m.httpProxy,
    HTTPS_PROXY: m.httpsProxy,
    https_proxy: m.httpsProxy,
    NO_PROXY: m.noProxy,
    no_proxy: m.noProxy,
  };
  if (m.caBundle) {
    for (const name of ['SSL_CERT_FILE', 'PIP_CERT', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'NODE_EXTRA_CA_CERTS', 'GIT_SSL_CAINFO', 'npm_config_cafile']) {
      args[name] = CA_IMAGE_PATH;
    }
  }
  return Object.fromEntries(Object.entries(args).filter((e): e is [string, string] => e[1] !== undefined));
}

// The Dockerfile the engine is sent: each stage declares the mirror arguments (and copies the CA
// bundle in) right after its FROM, so every RUN of the task sees them. A build argument is not
// kept in the image's environment: trials run without the mirrors.
export function withMirrorArgs(dockerfile: string, m: BuildMirrors): string {
  const names = Object.keys(mirrorBuildArgs(m));
  if (names.length === 0) return dockerfile;
  const lines = dockerfile.split('\n');
  const declare = [...(m.caBundle ? [`COPY ${CA_CONTEXT_PATH} ${CA_IMAGE_PATH}`] : []), ...names.map((n) => `ARG ${n}`)];
  for (const from of parseFromLines(dockerfile).reverse()) lines.splice(from.lineIndex + 1, 0, ...declare);
  return lines.join('\n');
}

// The extra files the build context needs (the CA bundle, read now so a missing file fails here).
export function mirrorContextEntries(m: BuildMirrors): TarEntry[] {
  if (!m.caBundle) return [];
  let content: Buffer;
  try {
    content = readFileSync(m.caBundle);
  } catch (err) {
    throw new Error(`${MIRROR_SETTINGS.caBundle}=${m.caBundle} cannot be read: ${(err as Error).message}`, { cause: err });
  }
  return [{ path: CA_CONTEXT_PATH, content, executable: false }];
}

// What a run records: the mirrors it built through, with any password in a URL left out.
export function mirrorsRecord(m: BuildMirrors): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [key, value] of Object.entries(m) as Array<[keyof BuildMirrors, string]>) {
    shown[MIRROR_SETTINGS[key]] = redactCredentials(value);
  }
  return shown;
}

function redactCredentials(value: string): string {
  try {
    const url = new URL(value);
    if (!url.password && !url.username) return value;
    url.username = url.username ? '***' : '';
    url.password = '';
    return url.toString();
  } catch {
    return value;
  }
}
