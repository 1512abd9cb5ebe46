// The stop's one race: a container creation sent before the stop that the engine answers after the
// removal listed its containers. A fake engine stands in for Docker so the answer can be held back.
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { guardContainerCreation, removeOwnContainers, SandboxStoppingError, stopCreatingSandboxes } from './stopping.ts';

interface FakeEngine {
  docker: Docker;
  answerCreation: () => void;
  removed: string[];
  listed: number;
}

function fakeEngine(): FakeEngine {
  const removed: string[] = [];
  let answer: () => void = () => {};
  const engine = {
    removed,
    listed: 0,
    answerCreation: () => answer(),
    docker: {
      createContainer: () =>
        new Promise((resolve) => {
          answer = () => resolve({ id: 'late', remove: async () => void removed.push('late') });
        }),
      listContainers: async () => {
        engine.listed += 1;
        return [];
      },
      getContainer: (id: string) => ({ remove: async () => void removed.push(id) }),
    } as unknown as Docker,
  };
  return engine;
}

describe('stopping while a creation is under way', () => {
  it('the late container removes itself and its creation fails as interrupted; the removal waits for it', async () => {
    const engine = fakeEngine();
    const docker = guardContainerCreation(engine.docker);
    const creation = docker.createContainer({ Image: 'x' });
    stopCreatingSandboxes('the process received SIGTERM');
    const removal = removeOwnContainers();
    // The removal has not listed the engine yet: it waits for the creation under way.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(engine.listed).toBe(0);
    engine.answerCreation();
    await expect(creation).rejects.toBeInstanceOf(SandboxStoppingError);
    expect(await removal).toBe(0);
    expect(engine.listed).toBe(1);
    expect(engine.removed).toEqual(['late']);
    // And nothing new is sent once stopping.
    await expect(docker.createContainer({ Image: 'x' })).rejects.toBeInstanceOf(SandboxStoppingError);
  });
});
