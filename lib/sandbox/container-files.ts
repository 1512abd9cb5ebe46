// Copying bundle directories into a container and reading single files out.
import type Docker from 'dockerode';
import { filesUnder, type TaskBundle } from '../env/bundle.ts';
import { isNotFound } from './docker.ts';
import { firstFileIn, packTar } from '../env/tar.ts';

// Copies the bundle's `dir/` (e.g. tests/) to `/dir` in the container, owned by root.
export async function copyBundleDir(container: Docker.Container, bundle: TaskBundle, dir: string): Promise<void> {
  const files = filesUnder(bundle, dir);
  if (files.length === 0) throw new Error(`task ${bundle.name} has no files under ${dir}/`);
  await container.putArchive(packTar(files), { path: '/' });
}

export async function readContainerFile(container: Docker.Container, path: string): Promise<Buffer | undefined> {
  try {
    return await firstFileIn(await container.getArchive({ path }));
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
