// Claude as a terminal agent: one bash tool over the container, through the Messages API.
// Prompt caching: the tool catalogue and the system prompt carry cache breakpoints (the prefix
// every rollout of every task shares), and so do the last two user messages, so each turn
// reads the conversation so far back from the cache instead of paying for it again. Transport
// retries (429, 5xx, 529 overloaded) are the SDK's, with the synthesiser's retry budget.
import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, ContentBlockParam, MessageParam, TextBlockParam, Tool, ToolResultBlockParam, Usage } from '@anthropic-ai/sdk/resources/messages';
import { settings, type Settings } from '../../config/index.ts';
import { AnthropicConfigError, DEFAULT_MODEL, resolveAnthropicConfig, type AnthropicConfig, describeFailure, tokenCounts } from '../../synth/index.ts';
import type { Policy, PolicyEpisode, TokenUsage } from '../types.ts';
import { BASH_TOOL_DESCRIPTION, BASH_TOOL_NAME, bashInputJsonSchema, environmentServices, parseBashInput, systemPrompt, workingDirOf } from './llm-agent.ts';
import { runAgentLoop, type Conversation, type ModelReply, type ToolOutcome } from './llm-loop.ts';

export interface AnthropicPolicyOptions {
  model?: string; // default: ENVOLVE_POLICY_MODEL, then the synthesiser's default model
  maxTurns?: number; // a cap below the episode's own turn limit
  maxTokens?: number; // per reply
  baseUrl?: string; // default: ANTHROPIC_BASE_URL, then the SDK's endpoint
  maxRetries?: number; // default: ENVOLVE_ANTHROPIC_MAX_RETRIES, then 4
}

// A reply is one short message and one command, so far below the synthesiser's budget.
export const DEFAULT_POLICY_MAX_TOKENS = 8192;

const CACHED = { type: 'ephemeral' } as const;

const BASH_TOOL: Tool = { name: BASH_TOOL_NAME, description: BASH_TOOL_DESCRIPTION, input_schema: bashInputJsonSchema(), cache_control: CACHED };

export class AnthropicPolicy implements Policy {
  readonly name = 'anthropic';
  readonly version = 'claude-bash-agent/1';
  readonly simulated = false;
  readonly model: string;
  private readonly config: AnthropicConfig;
  private readonly client: Anthropic;
  private readonly maxTurns: number | undefined;

  constructor(options: AnthropicPolicyOptions = {}, fromSettings: Settings['anthropic'] = settings().anthropic) {
    const apiKey = fromSettings.apiKey;
    if (!apiKey) throw new AnthropicConfigError('the anthropic policy needs an API key: set ANTHROPIC_API_KEY');
    if (options.maxTurns !== undefined && !(Number.isInteger(options.maxTurns) && options.maxTurns > 0)) {
      throw new AnthropicConfigError(`the anthropic policy's maxTurns must be a positive integer, got ${options.maxTurns}`);
    }
    this.config = resolveAnthropicConfig(
      {
        apiKey,
        baseURL: options.baseUrl,
        model: options.model ?? fromSettings.policyModel ?? DEFAULT_MODEL,
        maxTokens: options.maxTokens ?? DEFAULT_POLICY_MAX_TOKENS,
        maxRetries: options.maxRetries,
      },
      fromSettings,
    );
    this.model = this.config.model;
    this.maxTurns = options.maxTurns;
    this.client = new Anthropic({
      apiKey: this.config.apiKey,
      // null, not undefined: the resolved config is the only source; the SDK would read the env again.
      baseURL: this.config.baseURL ?? null,
      maxRetries: this.config.maxRetries,
      timeout: this.config.timeoutMs,
    });
  }

  async act(episode: PolicyEpisode): Promise<void> {
    const conversation = new ClaudeConversation(
      this.client,
      this.config,
      systemPrompt(workingDirOf(episode.task), environmentServices(episode.task)),
      episode.instruction,
    );
    await runAgentLoop(episode, conversation, Math.min(episode.maxTurns, this.maxTurns ?? Infinity));
  }
}

class ClaudeConversation implements Conversation {
  private readonly system: TextBlockParam[];
  private readonly messages: MessageParam[];

  constructor(
    private readonly client: Anthropic,
    private readonly config: AnthropicConfig,
    system: string,
    instruction: string,
  ) {
    this.system = [{ type: 'text', text: system, cache_control: CACHED }];
    this.messages = [{ role: 'user', content: [{ type: 'text', text: instruction }] }];
  }

  async next(signal: AbortSignal): Promise<ModelReply> {
    let response: Anthropic.Message;
    try {
      response = await this.client.messages.create(
        {
          model: this.config.model,
          max_tokens: this.config.maxTokens,
          tools: [BASH_TOOL],
          // One command per reply: the model sees each output before deciding the next command.
          tool_choice: { type: 'auto', disable_parallel_tool_use: true },
          system: this.system,
          messages: withConversationBreakpoints(this.messages),
        },
        { signal },
      );
    } catch (error) {
      throw describeFailure('anthropic policy', this.config, error);
    }
    this.messages.push({ role: 'assistant', content: response.content.flatMap(asParam) });
    const text = response.content.flatMap((b) => (b.type === 'text' && b.text.trim() !== '' ? [b.text] : [])).join('\n\n');
    return {
      message: text === '' ? undefined : text,
      usage: usageOf(response.usage),
      calls: response.content.flatMap((b) =>
        b.type !== 'tool_use'
          ? []
          : [
              {
                id: b.id,
                call:
                  b.name === BASH_TOOL_NAME
                    ? parseBashInput(b.input)
                    : { ok: false as const, problem: `unknown tool ${b.name}; the only tool is ${BASH_TOOL_NAME}` },
              },
            ],
      ),
      cutOff: response.stop_reason === 'max_tokens',
    };
  }

  answer(outcomes: ToolOutcome[]): void {
    const results: ToolResultBlockParam[] = outcomes.map((o) => ({
      type: 'tool_result',
      tool_use_id: o.id,
      content: o.content,
      is_error: o.isError || undefined,
    }));
    this.messages.push({ role: 'user', content: results });
  }
}

// The reply's blocks as they are sent back. Only text and tool_use occur: thinking is not enabled.
function asParam(block: ContentBlock): ContentBlockParam[] {
  if (block.type === 'text') return [{ type: 'text', text: block.text }];
  if (block.type === 'tool_use') return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }];
  return [];
}

// A copy of the conversation with a cache breakpoint on the last block of each of the last two
// user messages: the newest one writes the cache, the one before it is what this turn reads
// back (tools + system + these two = the API's limit of four breakpoints).
export function withConversationBreakpoints(messages: readonly MessageParam[]): MessageParam[] {
  const users = messages.flatMap((m, i) => (m.role === 'user' ? [i] : [])).slice(-2);
  return messages.map((message, i): MessageParam => {
    if (message.role !== 'user' || !users.includes(i) || typeof message.content === 'string' || message.content.length === 0) return message;
    const content = [...message.content];
    content[content.length - 1] = { ...content[content.length - 1]!, cache_control: CACHED } as ContentBlockParam;
    return { role: 'user', content };
  });
}

// ATIF's prompt_tokens counts every input token, cached or not; cached_tokens are the ones read back.
function usageOf(usage: Usage): TokenUsage {
  const counts = tokenCounts(usage);
  return {
    promptTokens: counts.inputTokens + counts.cacheCreationInputTokens + counts.cacheReadInputTokens,
    completionTokens: counts.outputTokens,
    cachedTokens: counts.cacheReadInputTokens,
  };
}
