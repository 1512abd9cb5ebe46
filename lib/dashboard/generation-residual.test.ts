import { describe, expect, it } from 'vitest';
import { inReadingOrder, isDataFile } from './generation-residual.ts';

describe('inReadingOrder', () => {
  it('puts the instruction first, then tests, solution and data, each by path', () => {
    const paths = [
      'environment/data/b.csv',
      'solution/solve.sh',
      'tests/test_outputs.py',
      'environment/Dockerfile',
      'instruction.md',
      'tests/test.sh',
      'task.toml',
    ];
    expect(inReadingOrder(paths.map((path) => ({ path }))).map((f) => f.path)).toEqual([
      'instruction.md',
      'task.toml',
      'tests/test.sh',
      'tests/test_outputs.py',
      'solution/solve.sh',
      'environment/Dockerfile',
      'environment/data/b.csv',
    ]);
  });
});

describe('isDataFile', () => {
  it('folds what the task works on, not what a reviewer reads as its definition', () => {
    const data = ['environment/data/b.csv', 'data/input-1.txt', 'environment/records/r-001.json'];
    const read = ['instruction.md', 'task.toml', 'tests/test.sh', 'solution/solve.sh', 'environment/Dockerfile', 'environment/docker-compose.yaml'];
    expect(data.filter(isDataFile)).toEqual(data);
    expect(read.filter(isDataFile)).toEqual([]);
  });
});
