// The agent loop both LLM policies run: ask the model, run each bash call it makes through the
// terminal (each run is one step of the trajectory), send the results back, until the model
// replies without a tool call, the turn limit is reached, or the wall-clock budget aborts.
// The API specifics (request shapes, caching, retries) live in each policy's Conversation.
import type { CommandResult, PolicyEpisode, TokenUsage, TurnNote } from '../types.ts';
import { renderObservation, type BashCall } from './llm-agent.ts';

export interface ModelToolCall {
  id: string; // the API's id, echoed with the result
  call: BashCall; // parsed by the conversation: a wrong tool name or bad arguments is { ok: false }
}

export interface ModelReply {
  message?: string; // the text beside (or instead of) the tool calls
  reasoning?: string;
  usage?: TokenUsage;
  calls: ModelToolCall[];
  cutOff: boolean; // the reply hit the completion token limit
}

export interface ToolOutcome {
  id: string;
  content: string;
  isError: boolean; // the call was malformed and did not run
}

export interface Conversation {
  // Sends the conversation so far and appends the model's reply to it.
  next(signal: AbortSignal): Promise<ModelReply>;
  // Appends the results of the reply's calls, in order (calls after the turn limit are left out).
  answer(outcomes: ToolOutcome[]): void;
}

export const CUT_OFF_MARKER = '[the reply was cut off at the completion token limit]';

// A turn is one tool call. A malformed call uses up a turn too, so a model that keeps sending
// malformed calls cannot loop forever.
export async function runAgentLoop(episode: PolicyEpisode, conversation: Conversation, maxTurns: number): Promise<void> {
  const { signal } = episode;
  const pending = new PendingNote();
  let turns = 0;
  while (turns < maxTurns) {
    if (signal.aborted) return;
    let reply: ModelReply;
    try {
      reply = await conversation.next(signal);
    } catch (error) {
      // The budget is spent mid-request: the runner scores the rollout as timed out.
      if (signal.aborted) return;
      throw error;
    }
    pending.add({ message: reply.message, reasoning: reply.reasoning, usage: reply.usage });
    if (reply.calls.length === 0) {
      if (reply.cutOff) pending.add({ message: CUT_OFF_MARKER });
      break;
    }
    const outcomes: ToolOutcome[] = [];
    for (const { id, call } of reply.calls) {
      if (turns >= maxTurns) break;
      turns++;
      if (!call.ok) {
        outcomes.push({ id, content: call.problem, isError: true });
        continue;
      }
      if (signal.aborted) return;
      pending.flush(episode);
      let result: CommandResult;
      try {
        result = await episode.terminal.run(call.command, call.timeoutSec === undefined ? undefined : { timeoutSec: call.timeoutSec });
      } catch (error) {
        if (signal.aborted) return;
        throw error;
      }
      outcomes.push({ id, content: renderObservation(result), isError: false });
    }
    conversation.answer(outcomes);
  }
  // The final message (or the tokens of replies whose calls never ran) as a message-only step.
  pending.flush(episode);
}

// What the model said and spent since the last command ran, so that nothing is reported twice
// and nothing is lost when a reply's calls do not run.
class PendingNote {
  private messages: string[] = [];
  private reasonings: string[] = [];
  private usage: TokenUsage | undefined;

  add(turn: TurnNote): void {
    if (turn.message) this.messages.push(turn.message);
    if (turn.reasoning) this.reasonings.push(turn.reasoning);
    if (turn.usage) this.usage = this.usage ? addUsage(this.usage, turn.usage) : { ...turn.usage };
  }

  flush(episode: PolicyEpisode): void {
    if (this.messages.length === 0 && this.reasonings.length === 0 && this.usage === undefined) return;
    episode.note({
      message: this.messages.length > 0 ? this.messages.join('\n\n') : undefined,
      reasoning: this.reasonings.length > 0 ? this.reasonings.join('\n\n') : undefined,
      usage: this.usage,
    });
    this.messages = [];
    this.reasonings = [];
    this.usage = undefined;
  }
}

function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum = (x?: number, y?: number) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  return {
    promptTokens: sum(a.promptTokens, b.promptTokens),
    completionTokens: sum(a.completionTokens, b.completionTokens),
    cachedTokens: sum(a.cachedTokens, b.cachedTokens),
  };
}
