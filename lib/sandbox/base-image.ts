// The local base image every task environment builds FROM. No registry is
// reachable, so it is made offline: debootstrap a minimal Debian from the
// mirror apt already uses, add the agent user and /logs, and `docker import`
// the tree. The image carries a hash of its recipe (tag and label), so a
// changed recipe builds a new image while an unchanged one is found by a
// single inspect. Callers pin the returned image ID, never the moving tag.
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { createDocker, isNotFound } from './docker.ts';
import { findDebianMirror } from './debian-mirror.ts';
import { withFileLock } from './file-lock.ts';
import { runCommand, logProgress, type Progress } from './run-command.ts';
import { settings } from '../config/index.ts';

export const BASE_IMAGE_REPO = 'envolve/base';
export const BASE_IMAGE_SUITE = 'bookworm';
export const BASE_IMAGE_TAG = `${BASE_IMAGE_REPO}:${BASE_IMAGE_SUITE}`;
export const RECIPE_LABEL = 'envolve.base.recipe';

// What tasks may rely on without installing anything (builds have no network).
export const BASE_PACKAGES = [
  'bash',
  'bc',
  'bzip2',
  'ca-certificates',
  'coreutils',
  'curl',
  'diffutils',
  'file',
  'findutils',
  'gawk',
  'git',
  'grep',
  'gzip',
  'iproute2',
  'jq',
  'less',
  'make',
  'patch',
  'procps',
  'python3',
  'python3-pytest',
  'sed',
  'sqlite3',
  'tar',
  'unzip',
  'xz-utils',
  'zip',
];

export const AGENT_UID = 1000;

// Runs inside the debootstrapped tree (chroot). Part of the recipe hash.
const SETUP_SCRIPT = `set -e
useradd --create-home --uid ${AGENT_UID} --shell /bin/bash agent
mkdir -p /logs/agent /logs/verifier
chown agent:agent /logs/agent
apt-get clean
rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/*.log
`;

const IMAGE_CHANGES = [
  'CMD ["/bin/bash"]',
  'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  'ENV LANG=C.UTF-8',
  'ENV DEBIAN_FRONTEND=noninteractive',
];

// Bump when the build procedure changes in a way the lists above don't show.
const RECIPE_VERSION = 1;

export function baseRecipeHash(): string {
  const recipe = JSON.stringify({ RECIPE_VERSION, suite: BASE_IMAGE_SUITE, BASE_PACKAGES, SETUP_SCRIPT, IMAGE_CHANGES });
  return createHash('sha256').update(recipe).digest('hex').slice(0, 12);
}

export interface BaseImage {
  tag: string; // the recipe-specific tag, e.g. envolve/base:bookworm-<hash>
  imageId: string; // sha256:…
  built: boolean; // false when an image of this recipe already existed
}

export interface EnsureBaseImageOptions {
  docker?: Docker;
  progress?: Progress; // defaults to stderr: a debootstrap takes 1–2 minutes
}

async function existingImageId(docker: Docker, ref: string): Promise<string | undefined> {
  try {
    return (await docker.getImage(ref).inspect()).Id;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

// Points the convenience tag (used in Dockerfiles) at the current recipe.
async function tagAsCurrent(docker: Docker, imageId: string): Promise<void> {
  if ((await existingImageId(docker, BASE_IMAGE_TAG)) === imageId) return;
  await docker.getImage(imageId).tag({ repo: BASE_IMAGE_REPO, tag: BASE_IMAGE_SUITE });
}

// debootstrap can leave /proc or /sys mounted inside the tree when it fails;
// removing the tree would then reach into the host's.
async function removeRootfs(dir: string): Promise<void> {
  const mounts = (await readFile('/proc/mounts', 'utf8'))
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .filter((point) => point === dir || point.startsWith(`${dir}/`))
    .sort()
    .reverse();
  for (const point of mounts) await runCommand('umount', ['-l', point], () => {});
  await rm(dir, { recursive: true, force: true });
}

async function importTree(docker: Docker, dir: string, tag: string, hash: string): Promise<void> {
  const tar = spawn('tar', ['-C', dir, '--numeric-owner', '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const stream = await docker.importImage(tar.stdout, {
    repo: BASE_IMAGE_REPO,
    tag: tag.split(':')[1],
    changes: [...IMAGE_CHANGES, `LABEL ${RECIPE_LABEL}=${hash}`],
  } as object);
  await new Promise<void>((resolve, reject) =>
    docker.modem.followProgress(stream, (err: Error | null, out: Array<{ error?: string }>) => {
      const failed = out?.find((o) => o.error);
      if (err || failed) reject(err ?? new Error(`docker import failed: ${failed?.error}`));
      else resolve();
    }),
  );
}

async function buildBaseImage(docker: Docker, tag: string, hash: string, progress: Progress): Promise<void> {
  if (process.getuid?.() !== 0) {
    throw new Error(`building ${tag} needs root (debootstrap, chroot); run it once as root, or load the image on this engine`);
  }
  const mirror = await findDebianMirror(BASE_IMAGE_SUITE);
  const dir = await mkdtemp(join(settings().sandbox.buildDir ?? tmpdir(), 'envolve-base-'));
  try {
    progress(`base image: debootstrap ${BASE_IMAGE_SUITE} from ${mirror} into ${dir} (1–2 min)`);
    await runCommand('debootstrap', ['--variant=minbase', `--include=${BASE_PACKAGES.join(',')}`, BASE_IMAGE_SUITE, dir, mirror], (line) =>
      progress(`debootstrap: ${line}`),
    );
    progress('base image: adding user agent (uid 1000) and /logs');
    await writeFile(join(dir, 'envolve-setup.sh'), SETUP_SCRIPT);
    await runCommand('chroot', [dir, '/bin/bash', '/envolve-setup.sh'], progress);
    await rm(join(dir, 'envolve-setup.sh'));
    progress(`base image: docker import as ${tag}`);
    await importTree(docker, dir, tag, hash);
  } finally {
    await removeRootfs(dir);
  }
}

// How long a process waits for another's build of the base image before it gives up.
export const BASE_IMAGE_LOCK_WAIT_MS = 15 * 60_000;

// Returns the base image for the current recipe, building it only when no
// image of this recipe exists. Safe to call from several processes at once.
export async function ensureBaseImage(opts: EnsureBaseImageOptions = {}): Promise<BaseImage> {
  const docker = opts.docker ?? createDocker();
  const progress = opts.progress ?? logProgress;
  const hash = baseRecipeHash();
  const tag = `${BASE_IMAGE_TAG}-${hash}`;

  const found = await existingImageId(docker, tag);
  if (found) {
    await tagAsCurrent(docker, found);
    return { tag, imageId: found, built: false };
  }
  const lockPath = join(tmpdir(), `envolve-base-image-${hash}.build-lock`);
  return withFileLock(
    lockPath,
    async () => {
      // Another process may have built it while we waited for the lock.
      let imageId = await existingImageId(docker, tag);
      const built = !imageId;
      if (!imageId) {
        const started = Date.now();
        await buildBaseImage(docker, tag, hash, progress);
        imageId = await existingImageId(docker, tag);
        if (!imageId) throw new Error(`docker import reported success but ${tag} does not exist`);
        progress(`base image: ${tag} = ${imageId} built in ${Math.round((Date.now() - started) / 1000)} s`);
      }
      await tagAsCurrent(docker, imageId);
      return { tag, imageId, built };
    },
    {
      timeoutMs: BASE_IMAGE_LOCK_WAIT_MS,
      onWait: () => progress(`base image: waiting for another build (${lockPath})`),
      onLost: (err) => progress(`base image: the build lock was taken over by another process (${err.message}); both may build`),
    },
  );
}
