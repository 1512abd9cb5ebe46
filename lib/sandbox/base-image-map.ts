// Which local image a Dockerfile's FROM reference builds on when this machine cannot pull it.
// An air-gapped lab `docker load`s its images; a loaded image keeps its tag but loses the repo
// digest, so a digest-pinned FROM no longer resolves by name. A mapping `FROM-reference=local-image`
// says which local image stands in. A key matches a reference by:
//   name@digest  that digest of that name (any tag)
//   name:tag     that tag of that name (any digest)
//   name         every tag and digest of that name
// The most specific key wins. `docker.io/` and `library/` are ignored, as Docker does.
import { z } from 'zod';

export const BASE_IMAGE_FLAG = '--base-image';
export const MAP_ALL_FLAG = '--map-base-image';

export const baseImageMappingSchema = z.object({
  images: z.record(z.string().min(1), z.string().min(1)).default({}),
  // The blanket choice: any other FROM this machine lacks builds on the local envolve base.
  unmatchedToBase: z.boolean().default(false),
});
export type BaseImageMapping = z.infer<typeof baseImageMappingSchema>;

export const NO_MAPPING: BaseImageMapping = { images: {}, unmatchedToBase: false };

export interface ImageReference {
  name: string;
  tag?: string;
  digest?: string;
}

export function parseReference(ref: string): ImageReference {
  const [beforeDigest = '', digest] = ref.trim().split('@', 2);
  const slash = beforeDigest.lastIndexOf('/');
  const colon = beforeDigest.lastIndexOf(':');
  const hasTag = colon > slash;
  const rawName = hasTag ? beforeDigest.slice(0, colon) : beforeDigest;
  const name = rawName
    .toLowerCase()
    .replace(/^(docker\.io|index\.docker\.io)\//, '')
    .replace(/^library\//, '');
  return { name, tag: hasTag ? beforeDigest.slice(colon + 1) : undefined, digest: digest?.toLowerCase() };
}

// 3 = digest, 2 = tag, 1 = name, 0 = no match.
function specificity(key: ImageReference, ref: ImageReference): number {
  if (key.name !== ref.name) return 0;
  if (key.digest) return key.digest === ref.digest ? 3 : 0;
  if (key.tag) return key.tag === (ref.tag ?? (ref.digest ? undefined : 'latest')) ? 2 : 0;
  return 1;
}

export function mappedImageFor(mapping: BaseImageMapping, fromReference: string): string | undefined {
  const ref = parseReference(fromReference);
  let best: { score: number; image: string } | undefined;
  for (const [key, image] of Object.entries(mapping.images)) {
    const score = specificity(parseReference(key), ref);
    if (score > 0 && (!best || score > best.score)) best = { score, image };
  }
  return best?.image;
}

// `FROM-reference=local-image`, as given to --base-image (repeatable) or stored on a lineage.
export function parseMappingEntries(entries: string[]): Record<string, string> {
  const images: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.lastIndexOf('=');
    const from = entry.slice(0, at).trim();
    const to = entry.slice(at + 1).trim();
    if (at <= 0 || !from || !to) throw new Error(`${BASE_IMAGE_FLAG} takes FROM-reference=local-image, not '${entry}'`);
    images[from] = to;
  }
  return images;
}

export function mappingFromFlags(opts: { baseImage?: string[]; mapBaseImage?: boolean }): BaseImageMapping | undefined {
  const images = parseMappingEntries(opts.baseImage ?? []);
  if (Object.keys(images).length === 0 && !opts.mapBaseImage) return undefined;
  return { images, unmatchedToBase: Boolean(opts.mapBaseImage) };
}

// A flag mapping given for one run goes over a stored one (the lineage's), image by image.
export function mergeMappings(stored: BaseImageMapping | undefined, given: BaseImageMapping | undefined): BaseImageMapping | undefined {
  if (!stored) return given;
  if (!given) return stored;
  return { images: { ...stored.images, ...given.images }, unmatchedToBase: stored.unmatchedToBase || given.unmatchedToBase };
}
