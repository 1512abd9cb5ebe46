// Which local images a set of tasks needs to build, which this engine has, and how to bring the
// missing ones to an air-gapped machine: `docker save` where they can be pulled, `docker load`
// here. A loaded image keeps its tag but not its repo digest, so a digest-pinned FROM then needs
// a --base-image mapping to the loaded tag; the commands say which.
import type Docker from 'dockerode';
import { bundleFile, type TaskBundle } from '../bundle/index.ts';
import { BASE_IMAGE_FLAG, NO_MAPPING, parseReference, type BaseImageMapping } from './base-image-map.ts';
import { mappingTargetFor, TOOLCHAIN_NAMES, toolchainTag } from './toolchains.ts';
import { BASE_IMAGE_TAG } from './base-image.ts';
import type { BuildMirrors } from './build-mirrors.ts';
import { composeFileOf, parseCompose } from './compose.ts';
import { describeNeed, fetchNeeds } from './fetch-needs.ts';
import { isNotFound } from './docker.ts';
import { externalFroms, parseFromLines } from './dockerfile-from.ts';

export interface NeededImage {
  reference: string; // as the Dockerfiles write it
  tasks: string[];
  present: boolean; // the reference itself, or the image it is mapped to, is on this engine
  mappedTo?: string;
}

export interface TaskFetches {
  task: string;
  fetches: string[]; // host (tool), what its build downloads
}

export interface ImageInventory {
  images: NeededImage[];
  skipped: string[]; // tasks without environment/Dockerfile: nothing to build
  fetches: TaskFetches[]; // tasks whose build downloads packages (set a mirror behind one)
  build: string[]; // commands that make the missing images built here (the base, toolchains)
  // For the missing ones: run `save` where the images can be pulled, copy the file, run `load` here.
  save: string | null;
  load: string | null;
  mapAfterLoad: string[]; // --base-image flags a digest-pinned reference needs once loaded
}

async function exists(docker: Docker, ref: string): Promise<boolean> {
  try {
    await docker.getImage(ref).inspect();
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

const ARCHIVE = 'envolve-images.tar';

// The images Envolve builds here rather than loads: the base, and the toolchains on it.
function buildCommandFor(ref: string): string | undefined {
  if (ref === BASE_IMAGE_TAG) return 'envolve sandbox base';
  const toolchain = TOOLCHAIN_NAMES.find((name) => ref === toolchainTag(name));
  return toolchain ? `envolve sandbox toolchains ${toolchain}` : undefined;
}

export async function imageInventory(
  docker: Docker,
  bundles: TaskBundle[],
  mapping: BaseImageMapping = NO_MAPPING,
  mirrors: BuildMirrors = {},
): Promise<ImageInventory> {
  const byReference = new Map<string, string[]>();
  const skipped: string[] = [];
  const fetches: TaskFetches[] = [];
  const need = (image: string, task: string) => byReference.set(image, [...(byReference.get(image) ?? []), task]);
  for (const bundle of bundles) {
    const dockerfile = bundleFile(bundle, 'environment/Dockerfile')?.content.toString('utf8');
    if (dockerfile === undefined) {
      skipped.push(bundle.name);
      continue;
    }
    for (const from of externalFroms(parseFromLines(dockerfile))) need(from.image, bundle.name);
    const compose = composeFileOf(bundle);
    const spec = compose ? parseCompose(compose.path, compose.text) : undefined;
    for (const sidecar of spec?.ok ? spec.sidecars : []) need(sidecar.image, bundle.name);
    const needs = fetchNeeds(dockerfile, { dockerfile: true, mirrors });
    if (needs.length) fetches.push({ task: bundle.name, fetches: needs.map(describeNeed) });
  }
  const images: NeededImage[] = [];
  for (const [reference, tasks] of [...byReference].sort(([a], [b]) => a.localeCompare(b))) {
    const mappedTo = (await exists(docker, reference)) ? undefined : mappingTargetFor(mapping, reference);
    const present = mappedTo === undefined ? await exists(docker, reference) : await exists(docker, mappedTo);
    images.push({ reference, tasks: [...new Set(tasks)], present, ...(mappedTo ? { mappedTo } : {}) });
  }
  const missingHere = images.filter((i) => !i.present).map((i) => i.mappedTo ?? i.reference);
  const build = [...new Set(missingHere.flatMap((ref) => buildCommandFor(ref) ?? []))];
  const missing = missingHere.filter((ref) => !buildCommandFor(ref));
  const steps = missing.flatMap((ref) => {
    const tag = savedTag(ref);
    return tag === ref ? [`docker pull '${ref}'`] : [`docker pull '${ref}'`, `docker tag '${ref}' '${tag}'`];
  });
  return {
    images,
    skipped,
    fetches,
    build,
    save: missing.length ? [...steps, `docker save -o ${ARCHIVE} ${missing.map((ref) => `'${savedTag(ref)}'`).join(' ')}`].join(' && ') : null,
    load: missing.length ? `docker load -i ${ARCHIVE}` : null,
    mapAfterLoad: missing.filter((ref) => ref !== savedTag(ref)).map((ref) => `${BASE_IMAGE_FLAG} '${ref}=${savedTag(ref)}'`),
  };
}

// A digest-pinned image is saved under a tag (saved by digest alone it would load untagged).
function savedTag(ref: string): string {
  const at = ref.indexOf('@');
  if (at < 0) return ref;
  const { name, tag, digest } = parseReference(ref);
  const undigested = ref.slice(0, at);
  return tag ? undigested : `${name}:pinned-${(digest ?? '').replace(/^sha256:/, '').slice(0, 12)}`;
}
