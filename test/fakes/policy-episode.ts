// A PolicyEpisode without Docker, for policy tests: a terminal that answers each command from a
// function and records it, and notes recorded the way the runner stores them (a note attaches
// to the next run; a note with no run after it becomes a message-only step).
import { bundleOf, validTaskFiles } from '../env/task-fixtures.ts';
import type { CommandResult, PolicyEpisode, TurnNote } from '../../lib/rollout/types.ts';

export interface RecordedStep {
  command?: string; // undefined: a message-only step
  timeoutSec?: number;
  note?: TurnNote;
  result?: CommandResult;
}

export interface FakeEpisodeOptions {
  instruction?: string;
  maxTurns?: number;
  // The command's result; the default echoes `ran: COMMAND` with exit code 0.
  run?: (command: string) => Partial<CommandResult> | Promise<Partial<CommandResult>>;
  signal?: AbortSignal;
}

export interface FakeEpisode {
  episode: PolicyEpisode;
  // The steps so far; call after act(): a trailing note becomes the final message-only step.
  steps(): RecordedStep[];
  commands(): string[];
}

export function fakeEpisode(options: FakeEpisodeOptions = {}): FakeEpisode {
  const steps: RecordedStep[] = [];
  let pendingNote: TurnNote | undefined;
  const episode: PolicyEpisode = {
    task: bundleOf(validTaskFiles()),
    instruction: options.instruction ?? 'Write hello to /app/out.txt.',
    seed: 1,
    attempt: 1,
    maxTurns: options.maxTurns ?? 20,
    signal: options.signal ?? new AbortController().signal,
    note(turn) {
      if (pendingNote) throw new Error('note() called twice without a run() in between: the first note would be lost');
      pendingNote = turn;
    },
    terminal: {
      async run(command, opts) {
        const step: RecordedStep = { command, timeoutSec: opts?.timeoutSec, note: pendingNote };
        pendingNote = undefined;
        steps.push(step);
        const started = Date.now();
        const partial = options.run ? await options.run(command) : { output: `ran: ${command}\n` };
        step.result = { output: '', exitCode: 0, timedOut: false, durationMs: Date.now() - started, ...partial };
        return step.result;
      },
    },
  };
  return {
    episode,
    steps() {
      if (pendingNote) steps.push({ note: pendingNote });
      pendingNote = undefined;
      return steps;
    },
    commands: () => steps.filter((s) => s.command !== undefined).map((s) => s.command!),
  };
}
