import { describe, expect, it } from 'vitest';
import { taskTomlSections } from './task-toml.ts';

describe('taskTomlSections', () => {
  it('keeps unknown keys, puts top-level keys first and flattens nested tables', () => {
    const { sections, error } = taskTomlSections(
      'version = "2.0"\n[environment]\nworkdir = "/app"\ncpus = 2\n[environment.extra]\nfoo = true\n[metadata]\ntags = ["a", "b"]\n',
    );

    expect(error).toBeNull();
    expect(sections).toEqual([
      { name: '', entries: [{ key: 'version', value: '2.0' }] },
      {
        name: 'environment',
        entries: [
          { key: 'workdir', value: '/app' },
          { key: 'cpus', value: '2' },
          { key: 'extra.foo', value: 'true' },
        ],
      },
      { name: 'metadata', entries: [{ key: 'tags', value: 'a, b' }] },
    ]);
  });

  it('reports a parse error instead of throwing', () => {
    expect(taskTomlSections('[broken').error).toMatch(/.+/);
  });
});
