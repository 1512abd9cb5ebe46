// One chat completion from an OpenAI-compatible server (vLLM, SGLang, …) with plain fetch: the
// configuration (options first, then the process settings), transient failures retried with
// backoff, the answer parsed with zod, and errors that say what the server said.
import { z } from 'zod';
import type { Settings } from '../../config/settings.ts';
import { UnavailableError } from '../../errors/index.ts';

export interface OpenAiOptions {
  baseUrl?: string; // default: ENVOLVE_OPENAI_BASE_URL, e.g. http://127.0.0.1:8000/v1
  model?: string; // default: ENVOLVE_OPENAI_MODEL (the name the server serves)
  apiKey?: string; // default: ENVOLVE_OPENAI_API_KEY; local servers usually need none
  maxTokens?: number; // per reply; default: the server's
  maxRetries?: number;
  requestTimeoutMs?: number;
}

export interface OpenAiConfig {
  endpoint: string; // {baseUrl}/chat/completions
  model: string;
  apiKey: string | undefined;
  maxTokens: number | undefined;
  maxRetries: number;
  requestTimeoutMs: number;
}

// Like the Anthropic client: a few retries, exponential backoff from 0.5 s, at most 8 s apart.
export const DEFAULT_MAX_RETRIES = 4;
const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 8000;
// A long reply from a loaded server can take minutes; the episode's budget bounds it anyway.
export const DEFAULT_REQUEST_TIMEOUT_MS = 10 * 60_000;
const BODY_EXCERPT_CHARS = 500;

export class OpenAiConfigError extends UnavailableError {
  constructor(message: string) {
    super(message, { code: 'openai_config' });
  }
}

export class OpenAiCallError extends UnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: 'openai_call_failed', cause: options?.cause });
  }
}

export function resolveOpenAiConfig(options: OpenAiOptions, fromSettings: Settings['openai']): OpenAiConfig {
  const baseUrl = options.baseUrl ?? fromSettings.baseUrl;
  if (!baseUrl) throw new OpenAiConfigError('the openai policy needs the server: set ENVOLVE_OPENAI_BASE_URL (e.g. http://127.0.0.1:8000/v1)');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new OpenAiConfigError(`ENVOLVE_OPENAI_BASE_URL is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OpenAiConfigError(`ENVOLVE_OPENAI_BASE_URL must be http(s), got ${url.protocol}`);
  const model = options.model ?? fromSettings.model;
  if (!model) throw new OpenAiConfigError('the openai policy needs a model name: set ENVOLVE_OPENAI_MODEL (the model the server serves)');
  for (const [name, value] of [
    ['maxTokens', options.maxTokens],
    ['requestTimeoutMs', options.requestTimeoutMs],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value > 0))
      throw new OpenAiConfigError(`the openai policy's ${name} must be a positive integer, got ${value}`);
  }
  if (options.maxRetries !== undefined && !(Number.isInteger(options.maxRetries) && options.maxRetries >= 0)) {
    throw new OpenAiConfigError(`the openai policy's maxRetries must be a non-negative integer, got ${options.maxRetries}`);
  }
  return {
    endpoint: `${baseUrl.replace(/\/+$/, '')}/chat/completions`,
    model,
    apiKey: options.apiKey ?? fromSettings.apiKey,
    maxTokens: options.maxTokens,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  };
}

const toolCall = z.object({
  id: z.string().min(1),
  type: z.literal('function').optional(),
  // Some servers send the arguments as an object rather than a JSON string.
  function: z.object({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]) }),
});

const chatCompletion = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          // vLLM's and SGLang's reasoning parsers: reasoning_content (older), reasoning (newer).
          reasoning_content: z.string().nullish(),
          reasoning: z.string().nullish(),
          tool_calls: z.array(toolCall).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().int().nonnegative().nullish() }).nullish(),
    })
    .nullish(),
});

export type ChatCompletion = z.infer<typeof chatCompletion>;
export type ChatToolCall = z.infer<typeof toolCall>;

export async function createChatCompletion(config: OpenAiConfig, body: Record<string, unknown>, signal: AbortSignal): Promise<ChatCompletion> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await attemptOnce(config, body, signal);
    if (outcome.ok) return outcome.completion;
    if (!outcome.retryable || attempt >= config.maxRetries) {
      const attempts = outcome.retryable ? `failed after ${config.maxRetries} retries` : 'failed (not retryable)';
      throw new OpenAiCallError(`openai policy: ${config.endpoint} ${attempts}: ${outcome.problem}`, { cause: outcome.cause });
    }
    await sleep(outcome.retryAfterMs ?? Math.min(BACKOFF_START_MS * 2 ** attempt, BACKOFF_MAX_MS), signal);
  }
}

type Attempt = { ok: true; completion: ChatCompletion } | { ok: false; retryable: boolean; problem: string; retryAfterMs?: number; cause?: unknown };

async function attemptOnce(config: OpenAiConfig, body: Record<string, unknown>, signal: AbortSignal): Promise<Attempt> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(config.endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.any([signal, AbortSignal.timeout(config.requestTimeoutMs)]),
    });
    text = await response.text();
  } catch (error) {
    // The episode's own abort is not a failure to retry: the caller stops.
    if (signal.aborted) throw error;
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    return { ok: false, retryable: true, problem: `could not be reached: ${reason}`, cause: error };
  }
  if (!response.ok) {
    return {
      ok: false,
      retryable: retryableStatus(response.status),
      problem: `answered ${response.status}: ${excerpt(text)}`,
      retryAfterMs: retryAfter(response.headers),
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, retryable: false, problem: `answered 200 with a body that is not JSON: ${excerpt(text)}` };
  }
  const parsed = chatCompletion.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return { ok: false, retryable: false, problem: `answered 200 with no usable chat completion (${issues}): ${excerpt(text)}` };
  }
  return { ok: true, completion: parsed.data };
}

function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function retryAfter(headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return Math.min(ms, 60_000);
  const seconds = Number(headers.get('retry-after'));
  if (headers.has('retry-after') && Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 60_000);
  return undefined;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  return flat.length > BODY_EXCERPT_CHARS ? `${flat.slice(0, BODY_EXCERPT_CHARS)}…` : flat;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
