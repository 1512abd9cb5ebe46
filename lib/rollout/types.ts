// The rollout contract: a policy acts in a sandboxed container through a terminal, turn by
// turn; the runner records every turn as an ATIF step, then the real verifier scores it.
import type { TaskBundle } from '../env/bundle.ts';
import type { Sequence } from '../sequence/types.ts';

// One command the agent ran in the container, and what came back.
export interface CommandResult {
  output: string; // stdout and stderr as they interleaved (whole, not truncated)
  exitCode: number | null; // null when the command was killed (its timeout, or the wall-clock budget)
  durationMs: number;
  timedOut: boolean;
}

// The agent's view of the container: a shell, nothing else.
export interface Terminal {
  run(command: string, opts?: { timeoutSec?: number }): Promise<CommandResult>;
}

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
  act(episode: PolicyEpisode): Promise<void>;
}
