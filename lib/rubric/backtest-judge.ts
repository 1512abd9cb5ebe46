// The LLM judge a backtest asks LLM-judged items: Claude when an API key is configured,
// otherwise none, and those items' findings stay 'unjudged' (never 'passed').
import { settings, type Settings } from '../config/settings.ts';
import { AnthropicSynthesiser } from '../synth/anthropic/index.ts';
import type { Synthesiser } from '../synth/types.ts';

export function configuredJudge(fromSettings: Settings['anthropic'] = settings().anthropic): Synthesiser | null {
  return fromSettings.apiKey ? new AnthropicSynthesiser({}, fromSettings) : null;
}
