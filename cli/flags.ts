// Command-line flags, checked before a command touches the database or Docker.
import type { Command } from 'commander';
import { InvalidInputError } from '../lib/errors/index.ts';
import { BASE_IMAGE_FLAG, MAP_ALL_FLAG, mappingFromFlags, type BaseImageMapping, BASE_IMAGE_TAG } from '../lib/sandbox/index.ts';

export function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidInputError(`${flag} must be a positive integer, not '${value}'`);
  return n;
}

export function nonNegativeInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 2 ** 31 - 1) throw new InvalidInputError(`${flag} must be an integer from 0 to 2^31-1, not '${value}'`);
  return n;
}

export function fraction(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidInputError(`${flag} must be a number from 0 to 1, not '${value}'`);
  return n;
}

// The base-image flags every command that builds an image takes.
export function withBaseImageFlags<C extends Command>(command: C): C {
  return command
    .option(
      `${BASE_IMAGE_FLAG} <FROM=local>`,
      'build FROM the local image where the Dockerfile names FROM (a tag, a name@sha256 digest, or a bare name); repeatable',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(MAP_ALL_FLAG, `build on ${BASE_IMAGE_TAG} wherever the Dockerfile names an image this machine lacks and no ${BASE_IMAGE_FLAG} maps it`);
}

// `opts` is commander's parsed options object of a command registered withBaseImageFlags.
export function baseImagesFrom(opts: object): BaseImageMapping | undefined {
  const flags = opts as { baseImage?: string[]; mapBaseImage?: boolean };
  return mappingFromFlags({ baseImage: flags.baseImage, mapBaseImage: Boolean(flags.mapBaseImage) });
}
