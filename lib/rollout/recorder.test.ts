import { describe, expect, it } from 'vitest';
import { touchesProtected, TrajectoryRecorder, TurnLimitReached } from './recorder.ts';
import type { Terminal } from './types.ts';

const echo: Terminal = { run: async (command) => ({ output: `ran ${command}\n`, exitCode: 0, durationMs: 1, timedOut: false }) };

describe('TrajectoryRecorder', () => {
  it('records the instruction, then each command with the note left before it; a trailing note is a final step', async () => {
    const recorder = new TrajectoryRecorder('do the task', 10);
    const terminal = recorder.wrap(echo);
    recorder.note({ message: 'first', reasoning: 'why', usage: { promptTokens: 5 } });
    recorder.note({ message: 'and more' });
    await terminal.run('ls');
    await terminal.run('pwd');
    recorder.note({ message: 'done' });
    recorder.finish();
    expect(recorder.turns).toBe(2);
    expect(recorder.steps.map((s) => [s.stepId, s.source, s.message, s.command ?? null])).toEqual([
      [1, 'user', 'do the task', null],
      [2, 'agent', 'first\nand more', 'ls'],
      [3, 'agent', '', 'pwd'],
      [4, 'agent', 'done', null],
    ]);
    expect(recorder.steps[1]).toMatchObject({ reasoning: 'why', promptTokens: 5, output: 'ran ls\n', exitCode: 0 });
  });

  it('refuses a command beyond maxTurns, and records a command the terminal could not run', async () => {
    const recorder = new TrajectoryRecorder('x', 1);
    const failing = recorder.wrap({ run: async () => Promise.reject(new Error('engine gone')) });
    await expect(failing.run('ls')).rejects.toThrow('engine gone');
    expect(recorder.steps[1]).toMatchObject({ command: 'ls', exitCode: null, output: '[envolve: the command could not be run: engine gone]\n' });
    await expect(failing.run('pwd')).rejects.toBeInstanceOf(TurnLimitReached);
    expect(recorder.turns).toBe(1);
  });
});

describe('touchesProtected', () => {
  it('flags commands on /logs, /tests or a reward file, not look-alikes', () => {
    for (const c of ['echo 1 > /logs/verifier/reward.txt', 'ls /tests', 'cat "/tests/test.sh"', 'cd /logs', 'python3 -c "open(\'reward.json\')"'])
      expect(touchesProtected(c)).toBe(true);
    for (const c of ['cat /app/logs/access.log', 'ls /app/tests_data', 'grep reward /app/notes.md', 'echo /testsuite']) expect(touchesProtected(c)).toBe(false);
  });
});
