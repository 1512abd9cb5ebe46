// Against the local engine: the base is present; registry images are missing, with the commands
// that bring them; a mapping to a present image counts as present.
import { describe, expect, it } from 'vitest';
import { bundleOf, validTaskFiles } from '../../test/env/task-fixtures.ts';
import { ensureBaseImage } from './base-image.ts';
import { createDocker } from './docker.ts';
import { imageInventory } from './image-inventory.ts';

const DIGEST = `sha256:${'9d'.repeat(32)}`;
const task = (name: string, dockerfile: string) => bundleOf({ ...validTaskFiles(), 'environment/Dockerfile': dockerfile }, name);

describe('imageInventory', () => {
  it('lists what the tasks build FROM, present or missing, and the save/load commands', async () => {
    const docker = createDocker();
    await ensureBaseImage({ docker, progress: () => {} });
    const tasks = [
      task('a', 'FROM envolve/base:bookworm\n'),
      task('b', `FROM lab.example/py:3.12@${DIGEST} AS build\nFROM build\n`),
      task('c', `FROM lab.example/go@${DIGEST}\n`),
    ];
    const inventory = await imageInventory(docker, tasks);
    expect(inventory.images).toEqual([
      { reference: 'envolve/base:bookworm', tasks: ['a'], present: true },
      { reference: `lab.example/go@${DIGEST}`, tasks: ['c'], present: false },
      { reference: `lab.example/py:3.12@${DIGEST}`, tasks: ['b'], present: false },
    ]);
    expect(inventory.save).toBe(
      `docker pull 'lab.example/go@${DIGEST}' && docker tag 'lab.example/go@${DIGEST}' 'lab.example/go:pinned-9d9d9d9d9d9d' && ` +
        `docker pull 'lab.example/py:3.12@${DIGEST}' && docker tag 'lab.example/py:3.12@${DIGEST}' 'lab.example/py:3.12' && ` +
        `docker save -o envolve-images.tar 'lab.example/go:pinned-9d9d9d9d9d9d' 'lab.example/py:3.12'`,
    );
    expect(inventory.load).toBe('docker load -i envolve-images.tar');
    expect(inventory.mapAfterLoad).toEqual([
      `--base-image 'lab.example/go@${DIGEST}=lab.example/go:pinned-9d9d9d9d9d9d'`,
      `--base-image 'lab.example/py:3.12@${DIGEST}=lab.example/py:3.12'`,
    ]);

    const mapped = await imageInventory(docker, tasks, { images: { 'lab.example/py': 'envolve/base:bookworm' }, unmatchedToBase: false });
    expect(mapped.images[2]).toEqual({ reference: `lab.example/py:3.12@${DIGEST}`, tasks: ['b'], present: true, mappedTo: 'envolve/base:bookworm' });
    expect(mapped.save).toContain('lab.example/go');
    expect(mapped.save).not.toContain('lab.example/py');
  });

  it('names the tasks it skipped, the sidecar images, what the builds download, and builds the toolchains it maps to here', async () => {
    const docker = createDocker();
    const noDockerfile = bundleOf(validTaskFiles(), 'no-dockerfile');
    noDockerfile.files = noDockerfile.files.filter((f) => f.path !== 'environment/Dockerfile');
    const tasks = [
      noDockerfile,
      bundleOf(
        {
          ...validTaskFiles(),
          'environment/Dockerfile': 'FROM golang:1.22\nRUN go mod download && pip install pytest\n',
          'environment/docker-compose.yaml': 'services:\n  main: {build: .}\n  db: {image: "lab.example/postgres:16"}\n',
        },
        'go-task',
      ),
    ];
    const inventory = await imageInventory(docker, tasks, { images: {}, unmatchedToBase: true }, { pipIndexUrl: 'https://devpi.lab/simple/' });
    expect(inventory.skipped).toEqual(['no-dockerfile']);
    expect(inventory.fetches).toEqual([{ task: 'go-task', fetches: ['devpi.lab (pip)', 'proxy.golang.org (go)'] }]);
    expect(inventory.images.map((i) => [i.reference, i.mappedTo])).toEqual([
      ['golang:1.22', 'envolve/toolchain:go'],
      ['lab.example/postgres:16', 'envolve/base:bookworm'],
    ]);
    const goToolchainHere = inventory.images[0]!.present;
    expect(inventory.build).toEqual(goToolchainHere ? [] : ['envolve sandbox toolchains go']);
    expect(inventory.save ?? '').not.toContain('toolchain');
  });
});
