// A local fake of an OpenAI-compatible chat completions endpoint (what vLLM and SGLang serve:
// POST {base}/chat/completions) for tests: node:http on 127.0.0.1 at a random port. It checks
// each request's shape, records it, and answers from a per-test script: a queue of replies
// first, then a responder function. Errors (429 with retry-after, 500, 503) and malformed
// bodies can be injected to exercise the client's retries and error messages.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeToolCall {
  name: string;
  arguments: string | Record<string, unknown>; // an object is sent JSON-encoded, as the API does
  id?: string;
}

export type FakeChatReply =
  | {
      content?: string | null;
      reasoning?: string; // sent as reasoning_content, as vLLM's reasoning parsers do
      toolCalls?: FakeToolCall[];
      finishReason?: 'stop' | 'tool_calls' | 'length'; // default: tool_calls when there are any, else stop
      // Default: prompt tokens estimated from the request (4 characters a token), no cached tokens.
      usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number } | null;
    }
  // retryAfterMs sets retry-after-ms (and retry-after in whole seconds); retryAfterSec sets only
  // the standard retry-after, in seconds.
  | { error: 400 | 401 | 404 | 429 | 500 | 502 | 503; body?: string; retryAfterMs?: number; retryAfterSec?: number }
  // A 200 whose body is exactly this text (for malformed-response tests).
  | { raw: string };

export interface RecordedChatRequest {
  index: number; // 0-based, in arrival order
  receivedAt: number; // epoch ms, when the whole request had arrived
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: ChatRequestBody; // as parsed from the wire; `violations` says where it does not match
  violations: string[];
  status: number; // what the fake answered
}

export interface ChatRequestBody {
  model: string;
  messages: {
    role: string;
    content?: string | null;
    tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: Record<string, unknown> } }[];
  tool_choice?: unknown;
  max_tokens?: number;
  seed?: number;
  [key: string]: unknown;
}

export type FakeChatResponder = (request: RecordedChatRequest) => FakeChatReply | Promise<FakeChatReply>;

export interface FakeOpenAi {
  url: string; // the base URL, ending in /v1 (ENVOLVE_OPENAI_BASE_URL)
  requests: RecordedChatRequest[];
  violations(): string[];
  enqueue(...replies: FakeChatReply[]): void;
  close(): Promise<void>;
}

export async function startFakeOpenAi(options: { respond?: FakeChatResponder; strict?: boolean } = {}): Promise<FakeOpenAi> {
  const requests: RecordedChatRequest[] = [];
  const queue: FakeChatReply[] = [];
  const strict = options.strict ?? true;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
    const violations: string[] = [];
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      violations.push('body is not JSON');
    }
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/chat/completions') violations.push(`unexpected ${req.method} ${req.url}`);
    if (!headers['content-type']?.startsWith('application/json')) violations.push('content-type is not application/json');
    if (body !== undefined) violations.push(...chatBodyViolations(body));
    const record: RecordedChatRequest = {
      index: requests.length,
      receivedAt: Date.now(),
      method: req.method ?? '',
      path: req.url ?? '',
      headers,
      body: body as ChatRequestBody,
      violations,
      status: 0,
    };
    requests.push(record);

    if (strict && violations.length > 0) return send(res, record, 400, { error: { message: violations.join('; '), type: 'BadRequestError', code: 400 } });
    const reply = queue.shift() ?? (options.respond ? await options.respond(record) : undefined);
    if (!reply) return send(res, record, 400, { error: { message: 'fake OpenAI: no scripted reply for this request', type: 'BadRequestError', code: 400 } });
    if ('error' in reply) {
      const extra: Record<string, string> = {};
      if (reply.retryAfterMs !== undefined) {
        extra['retry-after-ms'] = String(reply.retryAfterMs);
        extra['retry-after'] = String(Math.ceil(reply.retryAfterMs / 1000));
      }
      if (reply.retryAfterSec !== undefined) extra['retry-after'] = String(reply.retryAfterSec);
      return send(
        res,
        record,
        reply.error,
        reply.body ?? { error: { message: `injected ${reply.error}`, type: 'InternalServerError', code: reply.error } },
        extra,
      );
    }
    if ('raw' in reply) return send(res, record, 200, reply.raw);
    send(res, record, 200, completion(record, reply));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake crashed: ${String(error)}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    violations: () => requests.flatMap((r) => r.violations.map((v) => `request ${r.index}: ${v}`)),
    enqueue: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// What vLLM's OpenAI server refuses with a 400, as far as an agent conversation can get it wrong.
export function chatBodyViolations(body: unknown): string[] {
  if (!isObject(body)) return ['body is not a JSON object'];
  const violations: string[] = [];
  if (typeof body.model !== 'string' || body.model === '') violations.push('missing model');
  if (body.max_tokens !== undefined && !(Number.isInteger(body.max_tokens) && (body.max_tokens as number) > 0)) violations.push('invalid max_tokens');
  if (body.tools !== undefined && !Array.isArray(body.tools)) violations.push('tools is not a list');
  for (const [i, tool] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    if (!isObject(tool) || tool.type !== 'function' || !isObject(tool.function) || typeof tool.function.name !== 'string')
      violations.push(`tools[${i}] is not a function tool`);
    else if (!isObject(tool.function.parameters) || tool.function.parameters.type !== 'object')
      violations.push(`tools[${i}].function.parameters is not an object schema`);
  }
  if (body.tool_choice !== undefined && !['auto', 'none', 'required'].includes(body.tool_choice as string) && !isObject(body.tool_choice))
    violations.push('invalid tool_choice');
  if (!Array.isArray(body.messages) || body.messages.length === 0) return [...violations, 'missing messages'];
  let unanswered: string[] = [];
  body.messages.forEach((message, i) => {
    if (!isObject(message) || !['system', 'user', 'assistant', 'tool'].includes(message.role as string)) {
      violations.push(`messages[${i}] has no valid role`);
      return;
    }
    if (message.role === 'tool') {
      const id = message.tool_call_id;
      if (typeof id !== 'string' || !unanswered.includes(id))
        violations.push(`messages[${i}] answers no pending tool call (tool_call_id ${JSON.stringify(id)})`);
      else unanswered = unanswered.filter((u) => u !== id);
      if (typeof message.content !== 'string') violations.push(`messages[${i}] (tool) has no string content`);
      return;
    }
    if (unanswered.length > 0) violations.push(`tool calls ${unanswered.join(', ')} have no tool message before messages[${i}]`);
    unanswered = [];
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) {
        if (!isObject(call) || typeof call.id !== 'string' || !isObject(call.function) || typeof call.function.arguments !== 'string') {
          violations.push(`messages[${i}] has a malformed tool call (arguments must be a JSON string)`);
        } else unanswered.push(call.id);
      }
      if (message.content !== null && message.content !== undefined && typeof message.content !== 'string')
        violations.push(`messages[${i}].content is neither text nor null`);
    } else if (typeof message.content !== 'string') violations.push(`messages[${i}] has no string content`);
  });
  return violations;
}

function completion(record: RecordedChatRequest, reply: Extract<FakeChatReply, { toolCalls?: FakeToolCall[] }>): Json {
  const toolCalls = reply.toolCalls?.map((call) => ({
    id: call.id ?? `chatcmpl-tool-${randomBytes(8).toString('hex')}`,
    type: 'function',
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
  }));
  const message: Json = { role: 'assistant', content: reply.content ?? null, reasoning_content: reply.reasoning ?? null };
  if (toolCalls && toolCalls.length > 0) message.tool_calls = toolCalls;
  const usage =
    reply.usage === null
      ? null
      : reply.usage
        ? {
            prompt_tokens: reply.usage.prompt_tokens,
            completion_tokens: reply.usage.completion_tokens,
            total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens,
            prompt_tokens_details: { cached_tokens: reply.usage.cached_tokens ?? 0 },
          }
        : estimatedUsage(record, message);
  return {
    id: `chatcmpl-${randomBytes(8).toString('hex')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: record.body.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finishReason ?? (message.tool_calls ? 'tool_calls' : 'stop') }],
    usage,
  };
}

function estimatedUsage(record: RecordedChatRequest, message: Json): Json {
  const prompt = Math.ceil(JSON.stringify(record.body.messages).length / 4);
  const completionTokens = Math.ceil(JSON.stringify(message).length / 4);
  return { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens, prompt_tokens_details: null };
}

function send(res: ServerResponse, record: RecordedChatRequest, status: number, body: unknown, headers: Record<string, string> = {}): void {
  record.status = status;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
