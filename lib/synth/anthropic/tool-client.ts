// One forced tool call to Claude: the cached prefix (all tools, the system blocks), a per-call
// user message, tool_choice naming the role's tool. The answer is parsed with the tool's schema
// and checked by the caller; a rejected answer gets ONE corrective turn (the problems sent back
// as an error tool_result) before it becomes an error. Transport retries (429, 5xx, overloaded)
// are the SDK's, with an explicit budget.
import Anthropic, { APIConnectionError, APIError } from '@anthropic-ai/sdk';
import type { Message, MessageParam, TextBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { AnthropicConfig } from './config.ts';
import { InvalidAnswer } from '../types.ts';
import { TOOLS, parseToolInput, type ToolInput, type ToolName } from './tools.ts';
import { callUsage, totalUsage, type CallUsage, type UsageTotals } from './usage.ts';
import { UnavailableError } from '../../errors/index.ts';

const CORRECTIVE_TURNS = 1;

export type Interpretation<T> = { ok: true; value: T } | { ok: false; problems: string[] };

export interface ToolCall<N extends ToolName, T> {
  tool: N;
  system: TextBlockParam[];
  user: string;
  // Checks beyond the schema (ids that must exist, paths that must be safe…) and the result.
  interpret: (input: ToolInput<N>) => Interpretation<T>;
}

export class ToolInputError extends InvalidAnswer {
  constructor(
    readonly tool: ToolName,
    problems: string[],
  ) {
    super(`Claude's ${tool} answer was still invalid after a corrective retry: ${problems.join('; ')}`, problems);
  }
}

export class AnthropicCallError extends UnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: 'anthropic_call_failed', cause: options?.cause });
  }
}

export class ClaudeToolClient {
  private readonly client: Anthropic;
  private readonly log: CallUsage[] = [];

  constructor(readonly config: AnthropicConfig) {
    this.client = new Anthropic({
      apiKey: config.apiKey,
      // null, not undefined: the resolved config is the only source; the SDK would read the env again.
      baseURL: config.baseURL ?? null,
      maxRetries: config.maxRetries,
      timeout: config.timeoutMs,
    });
  }

  usage(): UsageTotals {
    return totalUsage(this.log);
  }

  calls(): readonly CallUsage[] {
    return this.log;
  }

  async call<N extends ToolName, T>(request: ToolCall<N, T>): Promise<T> {
    const messages: MessageParam[] = [{ role: 'user', content: request.user }];
    for (let turn = 0; ; turn++) {
      const response = await this.send(request.tool, request.system, messages);
      const toolUse = response.content.find((b): b is ToolUseBlock => b.type === 'tool_use' && b.name === request.tool);
      if (response.stop_reason === 'max_tokens') {
        throw new AnthropicCallError(
          `Claude's ${request.tool} answer was cut off at max_tokens (${this.config.maxTokens}); raise ENVOLVE_ANTHROPIC_MAX_TOKENS`,
        );
      }
      if (!toolUse) {
        throw new AnthropicCallError(`Claude answered without calling ${request.tool} (stop_reason ${response.stop_reason})`);
      }
      const parsed = parseToolInput(request.tool, toolUse.input);
      const result = parsed.ok ? request.interpret(parsed.value) : parsed;
      if (result.ok) return result.value;
      if (turn >= CORRECTIVE_TURNS) throw new ToolInputError(request.tool, result.problems);
      messages.push(
        { role: 'assistant', content: [{ type: 'tool_use', id: toolUse.id, name: toolUse.name, input: toolUse.input }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, is_error: true, content: correction(request.tool, result.problems) }] },
      );
    }
  }

  private async send(tool: ToolName, system: TextBlockParam[], messages: MessageParam[]): Promise<Message> {
    let response: Message;
    try {
      response = await this.client.messages.create({
        model: this.config.model,
        max_tokens: this.config.maxTokens,
        tools: TOOLS,
        tool_choice: { type: 'tool', name: tool, disable_parallel_tool_use: true },
        system,
        messages,
      });
    } catch (error) {
      throw describeFailure(tool, this.config, error);
    }
    this.log.push(callUsage(tool, this.config.model, response.usage));
    return response;
  }
}

function correction(tool: ToolName, problems: string[]): string {
  return `This ${tool} input was not accepted:\n${problems.map((p) => `- ${p}`).join('\n')}\nCall ${tool} again with a corrected, complete input.`;
}

function retryable(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

// `what` names the call in the message (a synthesiser tool, or the rollout policy's turn).
export function describeFailure(what: string, config: AnthropicConfig, error: unknown): Error {
  const endpoint = config.baseURL ?? 'the default Anthropic endpoint';
  if (error instanceof APIConnectionError) {
    return new AnthropicCallError(`${what}: could not reach ${endpoint} after ${config.maxRetries} retries: ${error.message}`, { cause: error });
  }
  if (error instanceof APIError && error.status !== undefined) {
    const attempts = retryable(error.status) ? `after ${config.maxRetries} retries` : '(not retryable)';
    return new AnthropicCallError(`${what}: the Anthropic API answered ${error.status} ${attempts}: ${error.message}`, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}
