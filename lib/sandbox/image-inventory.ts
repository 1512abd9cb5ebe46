// Which local images a set of tasks needs to build, which this engine has, and how to bring the
// missing ones to an air-gapped machine: `docker save` where they can be pulled, `docker load`
// here. A loaded image keeps its tag but not its repo digest, so a digest-pinned FROM then needs
// a --base-image mapping to the loaded tag; the commands say which.
import type Docker from 'dockerode';
import { bundleFile, type TaskBundle } from '../env/bundle.ts';
import { BASE_IMAGE_FLAG, NO_MAPPING, parseReference, type BaseImageMapping } from './base-image-map.ts';
import { mappingTargetFor } from './toolchains.ts';
import { isNotFound } from './docker.ts';
import { externalFroms, parseFromLines } from './dockerfile-from.ts';

export interface NeededImage {
  reference: string; // as the Dockerfiles write it
  tasks: string[];
  present: boolean; // the reference itself, or the image it is mapped to, is on this engine
  mappedTo?: string;
}

export interface ImageInventory {
  images: NeededImage[];
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

export async function imageInventory(docker: Docker, bundles: TaskBundle[], mapping: BaseImageMapping = NO_MAPPING): Promise<ImageInventory> {
  const byReference = new Map<string, string[]>();
  for (const bundle of bundles) {
    const dockerfile = bundleFile(bundle, 'environment/Dockerfile')?.content.toString('utf8') ?? '';
    for (const from of externalFroms(parseFromLines(dockerfile))) {
      byReference.set(from.image, [...(byReference.get(from.image) ?? []), bundle.name]);
    }
  }
  const images: NeededImage[] = [];
  for (const [reference, tasks] of [...byReference].sort(([a], [b]) => a.localeCompare(b))) {
    const mappedTo = (await exists(docker, reference)) ? undefined : mappingTargetFor(mapping, reference);
    const present = mappedTo === undefined ? await exists(docker, reference) : await exists(docker, mappedTo);
    images.push({ reference, tasks: [...new Set(tasks)], present, ...(mappedTo ? { mappedTo } : {}) });
  }
  const missing = images.filter((i) => !i.present).map((i) => i.mappedTo ?? i.reference);
  const steps = missing.flatMap((ref) => {
    const tag = savedTag(ref);
    return tag === ref ? [`docker pull '${ref}'`] : [`docker pull '${ref}'`, `docker tag '${ref}' '${tag}'`];
  });
  return {
    images,
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
