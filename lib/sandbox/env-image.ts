// Builds a task's environment/ directory into an image. The tag is a hash of
// the environment files and the IDs of the images they build FROM, so an
// unchanged environment on an unchanged base is reused, never rebuilt.
import { createHash } from 'node:crypto';
import type Docker from 'dockerode';
import { filesUnder, type TaskBundle, packTar, type TarEntry } from '../bundle/index.ts';
import { BASE_IMAGE_TAG } from './base-image.ts';
import { isNotFound } from './docker.ts';
import { BASE_IMAGE_FLAG, MAP_ALL_FLAG, NO_MAPPING, type BaseImageMapping } from './base-image-map.ts';
import { mappingTargetFor, TOOLCHAIN_NAMES, TOOLCHAIN_REPO } from './toolchains.ts';
import {
  BUILD_NETWORK_SETTING,
  buildNetworkSetting,
  looksLikeNetworkFailure,
  networkFailureMessage,
  resolveBuildNetwork,
  type BuildNetworkUsed,
} from './build-network.ts';
import { externalFroms, parseFromLines, rewriteFroms, type FromLine } from './dockerfile-from.ts';
import {
  mirrorBuildArgs,
  mirrorContextEntries,
  mirrorsRecord,
  resolveBuildMirrors,
  withMirrorArgs,
  type BuildMirrors,
  type MirrorsSource,
} from './build-mirrors.ts';
import { fetchNeeds, unreachableMessage, unresolvedNeeds } from './fetch-needs.ts';
import { composeFileOf, parseCompose } from './compose.ts';
import type { BuildAttempt, BuildOptions, BuildResult, MappedImage } from './types.ts';
import { RefusedError, UnavailableError } from '../errors/index.ts';
import { configuredCeilings } from './ceilings.ts';
import { timerDelayMs } from './timer-delay.ts';

export const ENV_IMAGE_REPO = 'envolve/env';
const LOG_TAIL_LINES = 40;

// A FROM this machine lacks (there is no registry to pull from). The hint names the flag that
// maps it, and says so when the image is here under its tag but without its repo digest.
export class BaseImageUnavailableError extends UnavailableError {
  readonly deterministic = true;
  constructor(
    readonly image: string,
    loadedAs?: string,
    mappedTo?: string,
    what = 'base image',
  ) {
    super(
      mappedTo
        ? `${what} '${image}' is mapped to '${mappedTo}', which is not on this machine (${howToGet(mappedTo)}; envolve sandbox images lists what a task set needs)`
        : `${what} '${image}' is not available on this machine (no registry access); ` +
            (loadedAs
              ? `it is here as '${loadedAs}' without its repo digest (a loaded image loses it): build on it with ${BASE_IMAGE_FLAG} '${image}=${loadedAs}'`
              : `map it to a local image with ${BASE_IMAGE_FLAG} '${image}=<local image>', or build it on ${BASE_IMAGE_TAG} with ${MAP_ALL_FLAG}`),
      { code: 'base_image_unavailable', details: { image } },
    );
  }
}

// A toolchain image is built here from Debian packages; any other image is loaded.
function howToGet(image: string): string {
  const toolchain = TOOLCHAIN_NAMES.find((name) => image === `${TOOLCHAIN_REPO}:${name}`);
  return toolchain ? `build it with: envolve sandbox toolchains ${toolchain}` : 'docker load it';
}

// A build that ran and failed. The same environment on the same bases fails the same way:
// callers do not retry it. `attempt` says how it was built and for how long.
export class EnvironmentBuildError extends RefusedError {
  readonly deterministic = true;
  constructor(
    message: string,
    readonly logTail: string,
    readonly attempt?: BuildAttempt,
  ) {
    super(logTail ? `${message}\n--- build log (tail) ---\n${logTail}` : message, { code: 'environment_build_failed' });
  }
}

// Failures that another try would repeat exactly: not for the modify loop or the queue to retry.
export function isDeterministicBuildFailure(err: unknown): err is BaseImageUnavailableError | EnvironmentBuildError {
  return err instanceof BaseImageUnavailableError || err instanceof EnvironmentBuildError;
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

// The digest-less form of a digest-pinned reference, when that is here (a `docker load`ed image).
async function loadedWithoutDigest(docker: Docker, image: string): Promise<string | undefined> {
  const at = image.indexOf('@');
  if (at < 0) return undefined;
  const undigested = image.slice(0, at);
  return (await imageIdOf(docker, undigested)) ? undigested : undefined;
}

// A reference's local image ID: the image itself when it is here, else the image the mapping
// names for it (or, the blanket choice, a toolchain or the local base), else a clear failure.
async function resolveImage(docker: Docker, reference: string, mapping: BaseImageMapping, what?: string): Promise<{ imageId: string; mapped?: MappedImage }> {
  const id = await imageIdOf(docker, reference);
  if (id) return { imageId: id };
  const target = mappingTargetFor(mapping, reference);
  if (!target) throw new BaseImageUnavailableError(reference, await loadedWithoutDigest(docker, reference), undefined, what);
  const targetId = await imageIdOf(docker, target);
  if (!targetId) throw new BaseImageUnavailableError(reference, undefined, target, what);
  return { imageId: targetId, mapped: { from: reference, to: target, imageId: targetId } };
}

async function resolveFroms(docker: Docker, dockerfile: string, mapping: BaseImageMapping) {
  const fromIds: string[] = [];
  const rewrites: Array<{ line: FromLine; imageId: string }> = [];
  const mapped: MappedImage[] = [];
  for (const from of externalFroms(parseFromLines(dockerfile))) {
    const resolved = await resolveImage(docker, from.image, mapping);
    fromIds.push(resolved.imageId);
    if (!resolved.mapped) continue;
    // By ID, not by tag: the image hashed into the tag is the one built on.
    rewrites.push({ line: from, imageId: resolved.imageId });
    mapped.push(resolved.mapped);
  }
  return { dockerfile: rewriteFroms(dockerfile, rewrites), fromIds, mapped };
}

// A compose task's sidecar images follow the same mapping as FROM lines. They are pinned by ID
// on the environment image (a label the trial reads), so a trial runs the sidecars it was built with.
async function resolveSidecars(docker: Docker, bundle: TaskBundle, mapping: BaseImageMapping) {
  const compose = composeFileOf(bundle);
  const spec = compose ? parseCompose(compose.path, compose.text) : undefined;
  const services: Record<string, string> = {};
  const mapped: MappedImage[] = [];
  for (const sidecar of spec?.ok ? spec.sidecars : []) {
    const resolved = await resolveImage(docker, sidecar.image, mapping, `the image of service '${sidecar.name}'`);
    services[sidecar.name] = resolved.imageId;
    if (resolved.mapped) mapped.push(resolved.mapped);
  }
  return { services, mapped };
}

/** The sidecar image IDs an environment image was built with (service name → image ID). */
export async function sidecarImagesOf(docker: Docker, imageId: string): Promise<Record<string, string>> {
  const labels = (await docker.getImage(imageId).inspect()).Config?.Labels ?? {};
  return JSON.parse(labels[SERVICES_LABEL] ?? '{}') as Record<string, string>;
}

const SERVICES_LABEL = 'envolve.services';
const MIRRORS_LABEL = 'envolve.build-mirrors';
const MIRRORS_SOURCE_LABEL = 'envolve.build-mirrors-source';

async function builtImage(docker: Docker, tag: string): Promise<{ id: string; mirrors: Record<string, string>; mirrorsSource: MirrorsSource } | undefined> {
  try {
    const info = await docker.getImage(tag).inspect();
    const labels = info.Config?.Labels ?? {};
    return {
      id: info.Id,
      mirrors: JSON.parse(labels[MIRRORS_LABEL] ?? '{}') as Record<string, string>,
      mirrorsSource: labels[MIRRORS_SOURCE_LABEL] === 'lineage' ? 'lineage' : 'deployment',
    };
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

interface BuildEvent {
  stream?: string;
  error?: string;
  errorDetail?: { message?: string };
}

interface BuildRun {
  entries: TarEntry[];
  tag: string;
  labels: Record<string, string>;
  buildargs: Record<string, string>;
  network: BuildNetworkUsed;
  timeoutSec?: number;
  attempt: () => BuildAttempt; // how it was built, up to now: kept on a failure
}

function runBuild(docker: Docker, { entries, tag, labels, buildargs, network, timeoutSec, attempt }: BuildRun) {
  return new Promise<void>((resolve, reject) => {
    const log: string[] = [];
    const tail = () => log.join('').split('\n').slice(-LOG_TAIL_LINES).join('\n');
    const failed = (message: string) => {
      const logTail = tail();
      const why = looksLikeNetworkFailure(log.join('')) ? networkFailureMessage(network) : message;
      return new EnvironmentBuildError(why, logTail, attempt());
    };
    docker
      .buildImage(packTar(entries), {
        t: tag,
        rm: true,
        forcerm: true,
        networkmode: network.mode === 'bridge' ? 'default' : network.mode,
        labels,
        buildargs,
        abortSignal: timeoutSec ? AbortSignal.timeout(timerDelayMs(Math.min(timeoutSec, configuredCeilings().buildTimeoutSec))) : undefined,
      })
      .then((stream) =>
        docker.modem.followProgress(
          stream,
          (err: Error | null) => (err ? reject(failed(err.message)) : resolve()),
          (event: BuildEvent) => {
            if (event.stream) log.push(event.stream);
            if (event.error) {
              log.push(`${event.error}\n`);
              reject(failed(`docker build failed: ${event.error}`));
            }
          },
        ),
      )
      .catch((err: Error) => reject(failed(err.message)));
  });
}

// Fails in seconds, naming the host, the tool and the setting, where the package manager would
// retry DNS for minutes: a host the build certainly fetches from that does not resolve here.
async function checkFetchHosts(dockerfile: string, network: BuildNetworkUsed, mirrors: BuildMirrors, attempt: () => BuildAttempt): Promise<void> {
  const needs = fetchNeeds(dockerfile, { dockerfile: true, mirrors }).filter((n) => n.certain);
  if (needs.length === 0) return;
  if (network.mode === 'none') {
    throw new EnvironmentBuildError(unreachableMessage(needs, `and ${BUILD_NETWORK_SETTING}=none gives the build no network`), '', attempt());
  }
  const unresolved = await unresolvedNeeds(needs, mirrors);
  if (unresolved.length === 0) return;
  const why = `which ${unresolved.length === 1 ? 'does' : 'do'} not resolve from this machine (${BUILD_NETWORK_SETTING}=${network.setting}, ${network.mode} network)`;
  throw new EnvironmentBuildError(unreachableMessage(unresolved, why), '', attempt());
}

export async function buildEnvironmentImage(docker: Docker, bundle: TaskBundle, opts: BuildOptions = {}): Promise<BuildResult> {
  const started = Date.now();
  const entries = contextEntries(bundle);
  const dockerfileEntry = entries.find((e) => e.path === 'Dockerfile');
  if (!dockerfileEntry) throw new EnvironmentBuildError(`task ${bundle.name} has no environment/Dockerfile`, '');

  const network = await resolveBuildNetwork(docker, opts.network ?? buildNetworkSetting());
  const { mirrors, source: mirrorsSource } = opts.mirrors ?? resolveBuildMirrors(undefined);
  const mapping = opts.baseImages ?? NO_MAPPING;
  const resolved = await resolveFroms(docker, dockerfileEntry.content.toString('utf8'), mapping);
  const sidecars = await resolveSidecars(docker, bundle, mapping);
  const context = entries.map((e) => (e === dockerfileEntry ? { ...e, content: Buffer.from(resolved.dockerfile) } : e));
  // Neither the network nor the mirrors are in the tag: an image that built is the same image
  // whichever network and mirror fetched its packages.
  const serviceIds = Object.entries(sidecars.services).map(([name, id]) => `${name}=${id}`);
  const tag = `${ENV_IMAGE_REPO}:${contextHash(context, [...resolved.fromIds, ...serviceIds])}`;
  const mapped = [...resolved.mapped, ...sidecars.mapped];
  const attempt = (): BuildAttempt => ({ tag, network, mapped, mirrors: mirrorsRecord(mirrors), mirrorsSource, durationMs: Date.now() - started });

  const existing = await builtImage(docker, tag);
  // A cached image records the mirrors it was built through, not today's settings.
  if (existing) return { ...attempt(), mirrors: existing.mirrors, mirrorsSource: existing.mirrorsSource, imageId: existing.id, cached: true };
  const sent = [
    ...context.map((e) => (e.path === dockerfileEntry.path ? { ...e, content: Buffer.from(withMirrorArgs(resolved.dockerfile, mirrors)) } : e)),
    ...mirrorContextEntries(mirrors),
  ];
  await checkFetchHosts(dockerfileEntry.content.toString('utf8'), network, mirrors, attempt);
  const labels = {
    'envolve.task': bundle.name,
    [MIRRORS_LABEL]: JSON.stringify(mirrorsRecord(mirrors)),
    [MIRRORS_SOURCE_LABEL]: mirrorsSource,
    [SERVICES_LABEL]: JSON.stringify(sidecars.services),
  };
  await runBuild(docker, { entries: sent, tag, labels, buildargs: mirrorBuildArgs(mirrors), network, timeoutSec: opts.timeoutSec, attempt });
  const imageId = await imageIdOf(docker, tag);
  if (!imageId) throw new EnvironmentBuildError(`build finished but ${tag} does not exist`, '', attempt());
  return { ...attempt(), imageId, cached: false };
}
