// The policy under training, as an OpenAI-compatible server (vLLM, SGLang, …) serves it: chat
// completions with one bash function tool. A message may carry several tool calls; they run in
// order, each one step of the trajectory, and each gets its own `tool` message back. The
// episode's seed is sent as the sampling seed, so a server that honours it replays a rollout.
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { settings, type Settings } from '../../config/index.ts';
import type { Policy, PolicyEpisode, TokenUsage } from '../types.ts';
import {
  OpenAiConfigError,
  createChatCompletion,
  openAiClient,
  resolveOpenAiConfig,
  type ChatCompletion,
  type ChatToolCall,
  type OpenAiConfig,
  type OpenAiOptions,
} from './openai-client.ts';
import {
  BASH_TOOL_DESCRIPTION,
  BASH_TOOL_NAME,
  bashInputJsonSchema,
  environmentServices,
  parseBashInput,
  systemPrompt,
  type BashCall,
  workingDirOf,
} from './llm-agent.ts';
import { runAgentLoop, type Conversation, type ModelReply, type ToolOutcome } from './llm-loop.ts';

export interface OpenAiPolicyOptions extends OpenAiOptions {
  maxTurns?: number; // a cap below the episode's own turn limit
}

const BASH_FUNCTION: ChatCompletionFunctionTool = {
  type: 'function',
  function: { name: BASH_TOOL_NAME, description: BASH_TOOL_DESCRIPTION, parameters: bashInputJsonSchema() },
};

export class OpenAiCompatiblePolicy implements Policy {
  readonly name = 'openai';
  readonly version = 'openai-bash-agent/1';
  readonly simulated = false;
  readonly model: string;
  private readonly config: OpenAiConfig;
  private readonly client: OpenAI;
  private readonly maxTurns: number | undefined;

  constructor(options: OpenAiPolicyOptions = {}, fromSettings: Settings['openai'] = settings().openai) {
    const { maxTurns, ...clientOptions } = options;
    this.config = resolveOpenAiConfig(clientOptions, fromSettings);
    if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns > 0)) {
      throw new OpenAiConfigError(`the openai policy's maxTurns must be a positive integer, got ${maxTurns}`);
    }
    this.model = this.config.model;
    this.maxTurns = maxTurns;
    this.client = openAiClient(this.config);
  }

  async act(episode: PolicyEpisode): Promise<void> {
    const conversation = new ChatConversation(this.client, this.config, episode.seed, [
      { role: 'system', content: systemPrompt(workingDirOf(episode.task), environmentServices(episode.task)) },
      { role: 'user', content: episode.instruction },
    ]);
    await runAgentLoop(episode, conversation, Math.min(episode.maxTurns, this.maxTurns ?? Infinity));
  }
}

class ChatConversation implements Conversation {
  constructor(
    private readonly client: OpenAI,
    private readonly config: OpenAiConfig,
    private readonly seed: number,
    private readonly messages: ChatCompletionMessageParam[],
  ) {}

  async next(signal: AbortSignal): Promise<ModelReply> {
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: this.config.model,
      messages: this.messages,
      tools: [BASH_FUNCTION],
      tool_choice: 'auto',
      seed: this.seed,
      // max_tokens, not max_completion_tokens: what vLLM and SGLang read.
      ...(this.config.maxTokens !== undefined ? { max_tokens: this.config.maxTokens } : {}),
    };
    const completion = await createChatCompletion(this.client, this.config, body, signal);
    const choice = completion.choices[0]!;
    const calls = (choice.message.tool_calls ?? []).map(asWireCall);
    const content = choice.message.content ?? null;
    this.messages.push(calls.length > 0 ? { role: 'assistant', content, tool_calls: calls } : { role: 'assistant', content });
    const reasoning = choice.message.reasoning_content ?? choice.message.reasoning ?? undefined;
    return {
      message: content?.trim() ? content : undefined,
      reasoning: reasoning?.trim() ? reasoning : undefined,
      usage: usageOf(completion),
      calls: calls.map((call) => ({ id: call.id, call: bashCallOf(call.function.name, call.function.arguments) })),
      cutOff: choice.finish_reason === 'length',
    };
  }

  answer(outcomes: ToolOutcome[]): void {
    // The API has no error flag on tool messages; a malformed call's message says so in words.
    for (const outcome of outcomes) this.messages.push({ role: 'tool', tool_call_id: outcome.id, content: outcome.content });
  }
}

// As it is sent back: arguments always a JSON string, whatever the server sent.
function asWireCall(call: ChatToolCall) {
  const args = typeof call.function.arguments === 'string' ? call.function.arguments : JSON.stringify(call.function.arguments);
  return { id: call.id, type: 'function' as const, function: { name: call.function.name, arguments: args } };
}

function bashCallOf(name: string, args: string): BashCall {
  if (name !== BASH_TOOL_NAME) return { ok: false, problem: `unknown function ${name}; the only function is ${BASH_TOOL_NAME}` };
  let input: unknown;
  try {
    input = JSON.parse(args);
  } catch {
    return { ok: false, problem: `the ${BASH_TOOL_NAME} arguments are not valid JSON; send {"command": "..."}` };
  }
  return parseBashInput(input);
}

function usageOf(completion: ChatCompletion): TokenUsage | undefined {
  const usage = completion.usage;
  if (!usage) return undefined;
  return {
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
    cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? undefined,
  };
}
