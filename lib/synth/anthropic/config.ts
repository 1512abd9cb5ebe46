// Where the Anthropic synthesiser's settings come from: explicit options first (tests), then the
// environment. Only the key is required; everything else has a default chosen for synthesis
// (a strong model: the method's ceiling is the synthesiser's quality, METHOD.md §1).

export const DEFAULT_MODEL = 'claude-opus-5-5';
export const DEFAULT_MAX_TOKENS = 16_000;
// Rate limits and overload are routine under a long evolution run; the SDK backs off
// exponentially (0.5 s doubling, at most 8 s) and honours retry-after between attempts.
export const DEFAULT_MAX_RETRIES = 4;
// Set explicitly: a modifier's answer can be long, and the SDK otherwise refuses non-streaming
// requests whose max_tokens it predicts to take longer than its own default.
export const DEFAULT_TIMEOUT_MS = 10 * 60_000;

// The process environment, or a stand-in for it (tests).
export type Environment = Readonly<Record<string, string | undefined>>;

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

export class AnthropicConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnthropicConfigError';
  }
}

export function resolveAnthropicConfig(options: AnthropicOptions = {}, env: Environment = process.env): AnthropicConfig {
  const apiKey = options.apiKey ?? env.ANTHROPIC_API_KEY;
  if (!apiKey) {
    throw new AnthropicConfigError('the Anthropic synthesiser needs an API key: set ANTHROPIC_API_KEY (or use --synth procedural, which needs none)');
  }
  return {
    apiKey,
    baseURL: options.baseURL ?? (env.ANTHROPIC_BASE_URL || undefined),
    model: options.model ?? (env.ENVOLVE_ANTHROPIC_MODEL || DEFAULT_MODEL),
    maxTokens: options.maxTokens ?? positiveInteger(env, 'ENVOLVE_ANTHROPIC_MAX_TOKENS', DEFAULT_MAX_TOKENS),
    maxRetries: options.maxRetries ?? nonNegativeInteger(env, 'ENVOLVE_ANTHROPIC_MAX_RETRIES', DEFAULT_MAX_RETRIES),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
}

function positiveInteger(env: Environment, name: string, fallback: number): number {
  const value = nonNegativeInteger(env, name, fallback);
  if (value === 0) throw new AnthropicConfigError(`${name} must be a positive integer, got 0`);
  return value;
}

function nonNegativeInteger(env: Environment, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new AnthropicConfigError(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}
