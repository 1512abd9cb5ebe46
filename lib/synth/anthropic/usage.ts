// Token usage of the Anthropic calls of one synthesiser, per call and in total, so the product
// can show what a generation cost and whether prompt caching hit.
import type { Usage } from '@anthropic-ai/sdk/resources/messages';
import type { ToolName } from './tools.ts';

export interface TokenCounts {
  inputTokens: number; // uncached input
  outputTokens: number;
  cacheCreationInputTokens: number; // input written to the prompt cache
  cacheReadInputTokens: number; // input read back from the prompt cache
}

export interface CallUsage extends TokenCounts {
  tool: ToolName;
  model: string;
}

export interface UsageTotals extends TokenCounts {
  calls: number;
}

// The counts of one Messages API response (also what the Anthropic rollout policy reports per turn).
export function tokenCounts(usage: Usage): TokenCounts {
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheCreationInputTokens: usage.cache_creation_input_tokens ?? 0,
    cacheReadInputTokens: usage.cache_read_input_tokens ?? 0,
  };
}

export function callUsage(tool: ToolName, model: string, usage: Usage): CallUsage {
  return { tool, model, ...tokenCounts(usage) };
}

export function totalUsage(calls: readonly CallUsage[]): UsageTotals {
  const totals: UsageTotals = { calls: calls.length, inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
  for (const call of calls) {
    totals.inputTokens += call.inputTokens;
    totals.outputTokens += call.outputTokens;
    totals.cacheCreationInputTokens += call.cacheCreationInputTokens;
    totals.cacheReadInputTokens += call.cacheReadInputTokens;
  }
  return totals;
}
