// One chat completion from an OpenAI-compatible server (vLLM, SGLang, …) through the official
// `openai` SDK: the configuration (options first, then the process settings), the SDK's retries
// (429, 5xx, connection failures; Retry-After honoured) and per-request timeout, the answer
// checked with zod (the SDK does not validate, and reasoning fields are not in its types), and
// errors that say what the server said.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { Settings } from '../../config/index.ts';
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
  baseUrl: string; // without a trailing slash
  model: string;
  apiKey: string | undefined;
  maxTokens: number | undefined;
  maxRetries: number;
  requestTimeoutMs: number;
}

// Like the Anthropic client: a few retries (the SDK's backoff: from 0.5 s, at most 8 s apart).
export const DEFAULT_MAX_RETRIES = 4;
// A long reply from a loaded server can take minutes; the episode's budget bounds it anyway.
export const DEFAULT_REQUEST_TIMEOUT_MS = 10 * 60_000;
const BODY_EXCERPT_CHARS = 500;
// The SDK refuses to start without a key. Without a configured key none is sent (the header is
// removed below), so this placeholder never leaves the process.
const NO_API_KEY = 'none';

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
    baseUrl: baseUrl.replace(/\/+$/, ''),
    model,
    apiKey: options.apiKey ?? fromSettings.apiKey,
    maxTokens: options.maxTokens,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  };
}

// Everything from the resolved configuration: nothing from OPENAI_* variables, which belong to
// whatever else runs in the process.
export function openAiClient(config: OpenAiConfig): OpenAI {
  return new OpenAI({
    baseURL: config.baseUrl,
    apiKey: config.apiKey ?? NO_API_KEY,
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: config.maxRetries,
    timeout: config.requestTimeoutMs,
    defaultHeaders: config.apiKey === undefined ? { Authorization: null } : undefined,
    fetch: fetchWithOpenAiErrorShape,
  });
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

// Throws the signal's abort as the SDK's APIUserAbortError once the episode's budget is spent,
// also while the SDK waits to retry (its wait does not watch the signal).
export async function createChatCompletion(
  client: OpenAI,
  config: OpenAiConfig,
  body: ChatCompletionCreateParamsNonStreaming,
  signal: AbortSignal,
): Promise<ChatCompletion> {
  let answer: unknown;
  try {
    answer = await untilAborted(client.chat.completions.create(body, { signal }), signal);
  } catch (error) {
    throw describeFailure(config, error);
  }
  const parsed = chatCompletion.safeParse(answer);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
    throw new OpenAiCallError(`openai policy: ${endpointOf(config)} answered 200 with no usable chat completion (${issues}): ${excerpt(text ?? '')}`);
  }
  return parsed.data;
}

function untilAborted<T>(request: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new APIUserAbortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new APIUserAbortError());
    signal.addEventListener('abort', onAbort, { once: true });
    request.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function describeFailure(config: OpenAiConfig, error: unknown): Error {
  const endpoint = endpointOf(config);
  const afterRetries = `failed after ${config.maxRetries} retries`;
  // The episode's own abort is not a failure: the agent loop sees the signal and stops.
  if (error instanceof APIUserAbortError) return error;
  if (error instanceof APIConnectionTimeoutError) {
    return new OpenAiCallError(`openai policy: ${endpoint} ${afterRetries}: no answer within the request timeout of ${config.requestTimeoutMs} ms`, {
      cause: error,
    });
  }
  if (error instanceof APIConnectionError) {
    const reason = error.cause instanceof Error ? (error.cause.cause instanceof Error ? error.cause.cause.message : error.cause.message) : error.message;
    return new OpenAiCallError(`openai policy: ${endpoint} ${afterRetries}: could not be reached: ${reason}`, { cause: error });
  }
  if (error instanceof APIError && error.status !== undefined) {
    const attempts = retryableStatus(error.status) ? afterRetries : 'failed (not retryable)';
    const said = error.message.startsWith(`${error.status} `) ? error.message.slice(`${error.status} `.length) : error.message;
    return new OpenAiCallError(`openai policy: ${endpoint} ${attempts}: answered ${error.status}: ${excerpt(said)}`, { cause: error });
  }
  // The SDK parses a JSON-typed body itself; a proxy's HTML page under that type fails here.
  if (error instanceof SyntaxError) {
    return new OpenAiCallError(`openai policy: ${endpoint} answered 200 with a body that is not JSON: ${error.message}`, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

// The SDK's own rule, so the message says whether retries were spent.
function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

// The SDK keeps a failure's JSON body only in OpenAI's shape, {"error": {...}}; SGLang (and
// older vLLM) answer {"object": "error", "message": ...}, which it would report as "(no body)".
// Wrapped in OpenAI's shape, what the server said reaches the error message.
async function fetchWithOpenAiErrorShape(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.ok || !response.headers.get('content-type')?.includes('json')) return response;
  const text = await response.text();
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  const rebuilt = (body: string) => new Response(body, { status: response.status, statusText: response.statusText, headers });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return rebuilt(text);
  }
  const inOpenAiShape = typeof json === 'object' && json !== null && !Array.isArray(json) && 'error' in json;
  return rebuilt(inOpenAiShape ? text : JSON.stringify({ error: json }));
}

function endpointOf(config: OpenAiConfig): string {
  return `${config.baseUrl}/chat/completions`;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  return flat.length > BODY_EXCERPT_CHARS ? `${flat.slice(0, BODY_EXCERPT_CHARS)}…` : flat;
}
