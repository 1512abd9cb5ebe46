// Bundle directories as tars for a container's stdin, and single files read out.
import type Docker from 'dockerode';
import { filesUnder, type TaskBundle, firstFileIn, packTarBuffer } from '../bundle/index.ts';
import { isNotFound } from './docker.ts';

// Unpacks a tar read from stdin at /, as root: how bundle files reach a running container, in the
// trial's session (no round trip of their own; and under gVisor, files copied in from outside a
// path the sandbox already looked up stay invisible to it, so they go through the sandbox's own kernel).
export const UNPACK_STDIN = 'tar -x -C / -f -';

/** The bundle's `dir/` as a tar to unpack at / (UNPACK_STDIN); throws when it has no files. */
export async function bundleDirTar(bundle: TaskBundle, dir: string): Promise<Buffer> {
  const files = filesUnder(bundle, dir);
  if (files.length === 0) throw new Error(`task ${bundle.name} has no files under ${dir}/`);
  return packTarBuffer(files);
}

export async function readContainerFile(container: Docker.Container, path: string): Promise<Buffer | undefined> {
  try {
    return await firstFileIn(await container.getArchive({ path }));
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
