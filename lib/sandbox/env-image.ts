// Builds a task's environment/ directory into an image. The tag is a hash of
// the environment files and the IDs of the images they build FROM, so an
// unchanged environment on an unchanged base is reused, never rebuilt.
import { createHash } from 'node:crypto';
import type Docker from 'dockerode';
import { filesUnder, type TaskBundle } from '../env/bundle.ts';
import { BASE_IMAGE_TAG } from './base-image.ts';
import { isNotFound } from './docker.ts';
import { externalFroms, parseFromLines, rewriteFroms, type FromLine } from './dockerfile-from.ts';
import { packTar, type TarEntry } from '../env/tar.ts';
import type { BuildOptions, BuildResult } from './types.ts';

export const ENV_IMAGE_REPO = 'envolve/env';
const LOG_TAIL_LINES = 40;

export class BaseImageUnavailableError extends Error {
  constructor(readonly image: string) {
    super(
      `base image '${image}' is not available on this machine (no registry access); ` +
        `use the local base ${BASE_IMAGE_TAG} or pass mapBaseImage`,
    );
    this.name = 'BaseImageUnavailableError';
  }
}

export class EnvironmentBuildError extends Error {
  constructor(message: string, readonly logTail: string) {
    super(`${message}\n--- build log (tail) ---\n${logTail}`);
    this.name = 'EnvironmentBuildError';
  }
}

async function imageIdOf(docker: Docker, ref: string): Promise<string | undefined> {
  try {
    return (await docker.getImage(ref).inspect()).Id;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function contextEntries(bundle: TaskBundle): TarEntry[] {
  return filesUnder(bundle, 'environment').map((f) => ({ ...f, path: f.path.slice('environment/'.length) }));
}

function contextHash(entries: TarEntry[], fromIds: string[]): string {
  const hash = createHash('sha256');
  for (const e of [...entries].sort((a, b) => a.path.localeCompare(b.path))) {
    hash.update(`${e.path}\0${e.executable ? 'x' : '-'}\0${e.content.length}\0`).update(e.content);
  }
  hash.update(fromIds.join('\0'));
  return hash.digest('hex').slice(0, 24);
}

// Resolves every external FROM to a local image ID; missing ones are either
// fatal or (mapBaseImage) replaced by the local base.
async function resolveFroms(docker: Docker, dockerfile: string, mapBaseImage: boolean) {
  const missing: FromLine[] = [];
  const fromIds: string[] = [];
  for (const from of externalFroms(parseFromLines(dockerfile))) {
    const id = await imageIdOf(docker, from.image);
    if (id) fromIds.push(id);
    else if (mapBaseImage) missing.push(from);
    else throw new BaseImageUnavailableError(from.image);
  }
  if (missing.length === 0) return { dockerfile, fromIds, mappedFrom: [] };
  const baseId = await imageIdOf(docker, BASE_IMAGE_TAG);
  if (!baseId) throw new Error(`cannot map FROM lines: the local base ${BASE_IMAGE_TAG} does not exist (run ensureBaseImage)`);
  return {
    // By ID, not by tag: the image hashed into the tag is the one built on.
    dockerfile: rewriteFroms(dockerfile, missing, baseId),
    fromIds: [...fromIds, ...missing.map(() => baseId)],
    mappedFrom: missing.map((m) => m.image),
  };
}

interface BuildEvent {
  stream?: string;
  error?: string;
  errorDetail?: { message?: string };
}

function runBuild(docker: Docker, entries: TarEntry[], tag: string, labels: Record<string, string>, timeoutSec?: number) {
  return new Promise<void>((resolve, reject) => {
    const log: string[] = [];
    const tail = () => log.join('').split('\n').slice(-LOG_TAIL_LINES).join('\n');
    docker
      .buildImage(packTar(entries), {
        t: tag,
        rm: true,
        forcerm: true,
        networkmode: 'none', // builds get no network either
        labels,
        abortSignal: timeoutSec ? AbortSignal.timeout(timeoutSec * 1000) : undefined,
      })
      .then((stream) =>
        docker.modem.followProgress(
          stream,
          (err: Error | null) => (err ? reject(new EnvironmentBuildError(err.message, tail())) : resolve()),
          (event: BuildEvent) => {
            if (event.stream) log.push(event.stream);
            if (event.error) {
              log.push(`${event.error}\n`);
              reject(new EnvironmentBuildError(`docker build failed: ${event.error}`, tail()));
            }
          },
        ),
      )
      .catch((err: Error) => reject(new EnvironmentBuildError(err.message, tail())));
  });
}

export async function buildEnvironmentImage(
  docker: Docker,
  bundle: TaskBundle,
  opts: BuildOptions = {},
): Promise<BuildResult> {
  const started = Date.now();
  const entries = contextEntries(bundle);
  const dockerfileEntry = entries.find((e) => e.path === 'Dockerfile');
  if (!dockerfileEntry) throw new Error(`task ${bundle.name} has no environment/Dockerfile`);

  const resolved = await resolveFroms(docker, dockerfileEntry.content.toString('utf8'), opts.mapBaseImage ?? false);
  const context = entries.map((e) => (e === dockerfileEntry ? { ...e, content: Buffer.from(resolved.dockerfile) } : e));
  const tag = `${ENV_IMAGE_REPO}:${contextHash(context, resolved.fromIds)}`;

  const existing = await imageIdOf(docker, tag);
  if (existing) {
    return { imageId: existing, tag, durationMs: Date.now() - started, cached: true, mappedFrom: resolved.mappedFrom };
  }
  await runBuild(docker, context, tag, { 'envolve.task': bundle.name }, opts.timeoutSec);
  const imageId = await imageIdOf(docker, tag);
  if (!imageId) throw new EnvironmentBuildError(`build finished but ${tag} does not exist`, '');
  return { imageId, tag, durationMs: Date.now() - started, cached: false, mappedFrom: resolved.mappedFrom };
}
