// The LLM judge a backtest asks LLM-judged items: Claude when an API key is configured,
// otherwise none, and those items' findings stay 'unjudged' (never 'passed').
import { AnthropicSynthesiser } from '../synth/anthropic/index.ts';
import type { Synthesiser } from '../synth/types.ts';

export function configuredJudge(env: NodeJS.ProcessEnv = process.env): Synthesiser | null {
  return env.ANTHROPIC_API_KEY ? new AnthropicSynthesiser({}, env) : null;
}
