// The LLM judge a backtest asks LLM-judged items: Claude when an API key is configured,
// otherwise none, and those items' findings stay 'unjudged' (never 'passed').
import { settings, type Settings } from '../config/index.ts';
import { AnthropicSynthesiser } from '../synth/index.ts';
import type { Synthesiser } from '../synth/index.ts';

export function configuredJudge(fromSettings: Settings['anthropic'] = settings().anthropic): Synthesiser | null {
  return fromSettings.apiKey ? new AnthropicSynthesiser({}, fromSettings) : null;
}
