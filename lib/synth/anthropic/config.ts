// Where the Anthropic synthesiser's settings come from: explicit options first (tests), then the
// process settings (lib/config). Only the key is required; everything else has a default chosen for synthesis
// (a strong model: the method's ceiling is the synthesiser's quality, docs/method.md §4).
import { settings, type Settings } from '../../config/index.ts';
import { UnavailableError } from '../../errors/index.ts';

export const DEFAULT_MODEL = 'claude-opus-5-5';
export const DEFAULT_MAX_TOKENS = 16_000;
// Rate limits and overload are routine under a long evolution run; the SDK backs off
// exponentially (0.5 s doubling, at most 8 s) and honours retry-after between attempts.
export const DEFAULT_MAX_RETRIES = 4;
// Set explicitly: a modifier's answer can be long, and the SDK otherwise refuses non-streaming
// requests whose max_tokens it predicts to take longer than its own default.
export const DEFAULT_TIMEOUT_MS = 10 * 60_000;

export interface AnthropicOptions {
  apiKey?: string;
  baseURL?: string;
  model?: string;
  maxTokens?: number;
  maxRetries?: number;
  timeoutMs?: number;
}

export interface AnthropicConfig {
  apiKey: string;
  baseURL: string | undefined; // undefined: the SDK's default endpoint
  model: string;
  maxTokens: number;
  maxRetries: number;
  timeoutMs: number;
}

export class AnthropicConfigError extends UnavailableError {
  constructor(message: string) {
    super(message, { code: 'anthropic_config' });
  }
}

export function resolveAnthropicConfig(options: AnthropicOptions = {}, fromSettings: Settings['anthropic'] = settings().anthropic): AnthropicConfig {
  const apiKey = options.apiKey ?? fromSettings.apiKey;
  if (!apiKey) {
    throw new AnthropicConfigError('the Anthropic synthesiser needs an API key: set ANTHROPIC_API_KEY (or use --synth procedural, which needs none)');
  }
  return {
    apiKey,
    baseURL: options.baseURL ?? fromSettings.baseUrl,
    model: options.model ?? fromSettings.model ?? DEFAULT_MODEL,
    maxTokens: options.maxTokens ?? fromSettings.maxTokens ?? DEFAULT_MAX_TOKENS,
    maxRetries: options.maxRetries ?? fromSettings.maxRetries ?? DEFAULT_MAX_RETRIES,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
}
