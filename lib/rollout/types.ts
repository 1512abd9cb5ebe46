// The rollout contract: a policy acts in a sandboxed container through a terminal, turn by
// turn; the runner records every turn as an ATIF step, then the real verifier scores it.
import type { TaskBundle } from '../bundle/index.ts';
import type { ShellResult, ShellTerminal } from '../sandbox/index.ts';
import type { Sequence } from '../sequence/index.ts';

// One command the agent ran in the container, and what came back: stdout and stderr as they
// interleaved, whole up to the sandbox's per-command cap (1 MiB; a cut is marked in the output),
// exitCode null when the command was killed (its timeout, or the wall-clock budget).
export type CommandResult = ShellResult;

// The agent's view of the container: a shell, nothing else. Each command runs in a fresh bash
// in the directory the previous one ended in; only files and the working directory carry over.
export type Terminal = ShellTerminal;

export interface TokenUsage {
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
}

// What a policy reports about one turn beyond the command itself.
export interface TurnNote {
  message?: string; // the agent's message (its text beside the tool call)
  reasoning?: string;
  usage?: TokenUsage;
}

// Handed to a policy for one rollout. `record` turns are what the runner stores as the trajectory.
export interface PolicyEpisode {
  task: TaskBundle;
  instruction: string;
  sequence?: Sequence; // the environment's scenario–skill sequence, when Envolve made it
  seed: number; // deterministic policies derive every choice from it
  attempt: number; // 1-based attempt number within the group
  terminal: Terminal; // each run() is recorded as one step, with the note of the call
  note(turn: TurnNote): void; // attaches message / reasoning / usage to the next run() (or a final message-only step)
  signal: AbortSignal; // aborted when the wall-clock budget is spent
  maxTurns: number;
}

export interface Policy {
  readonly name: string; // oracle | nop | simulated | anthropic | openai
  readonly version: string; // changes whenever its behaviour does
  readonly model?: string; // LLM policies: the model id
  readonly simulated: boolean; // scores of simulated policies are labelled as such everywhere
  readonly usesSolution?: boolean; // the reference solution is put at /solution (oracle and simulated only)
  act(episode: PolicyEpisode): Promise<void>;
}
