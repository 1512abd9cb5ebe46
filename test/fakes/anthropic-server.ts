// A local fake of the Anthropic Messages API (POST /v1/messages) for tests: node:http on
// 127.0.0.1 at a random port. It checks every request's shape (see anthropic-request-checks.ts),
// records it, accounts prompt caching like the real API, and answers from a per-test script: a
// queue of replies first, then a responder function. Errors can be injected (429 with
// retry-after, 529 overloaded, 500) to exercise the client's retries.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { FakePromptCache, estimateTokens, type CacheAccounting } from './anthropic-cache.ts';
import { bodyViolations, headerViolations } from './anthropic-request-checks.ts';

export type FakeReply =
  // A tool_use block; the tool is the one tool_choice forces unless toolName says otherwise.
  | { toolInput: unknown; toolName?: string; stopReason?: 'tool_use' | 'max_tokens' }
  | { text: string }
  // A whole assistant message, for agent conversations: text and tool_use blocks in order.
  // stopReason defaults to tool_use when there is a tool_use block, end_turn otherwise.
  | { content: FakeBlock[]; stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' }
  // An API error; retryAfterMs sets retry-after-ms (and retry-after in whole seconds).
  | { error: 429 | 500 | 503 | 529 | 400 | 401; retryAfterMs?: number; message?: string };

export type FakeBlock = { text: string } | { toolUse: { name: string; input: unknown; id?: string } };

export interface RecordedRequest {
  index: number; // 0-based, in arrival order
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  // As parsed from the wire; `violations` says where it does not match this type.
  body: MessageCreateParamsNonStreaming;
  forcedTool: string | null; // tool_choice {type:'tool'}'s name
  violations: string[];
  cache: CacheAccounting | null; // null when the request was refused before accounting
  status: number; // what the fake answered
}

export type FakeResponder = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

export interface FakeAnthropicOptions {
  respond?: FakeResponder;
  // Answer requests with violations with a 400, as the real API does for malformed requests.
  strict?: boolean;
  // The smallest prefix the fake caches (the real API's minimum is 1024 tokens and up).
  minCacheableTokens?: number;
}

export interface FakeAnthropic {
  url: string; // base URL for the SDK (ANTHROPIC_BASE_URL)
  requests: RecordedRequest[];
  violations(): string[]; // every request's violations, prefixed with its index
  enqueue(...replies: FakeReply[]): void;
  close(): Promise<void>;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'api_error',
  529: 'overloaded_error',
};

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  const cache = new FakePromptCache(options.minCacheableTokens ?? 1024);
  const strict = options.strict ?? true;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
    let body: unknown;
    const violations: string[] = [];
    try {
      body = JSON.parse(raw);
    } catch {
      violations.push('body is not JSON');
    }
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/messages') violations.push(`unexpected ${req.method} ${req.url}`);
    violations.push(...headerViolations(headers), ...(body === undefined ? [] : bodyViolations(body)));
    const record: RecordedRequest = {
      index: requests.length,
      method: req.method ?? '',
      path: req.url ?? '',
      headers,
      body: body as MessageCreateParamsNonStreaming,
      forcedTool: forcedToolOf(body),
      violations,
      cache: null,
      status: 0,
    };
    requests.push(record);

    if (strict && violations.length > 0) return sendError(res, record, 400, `fake Anthropic API: ${violations.join('; ')}`);
    const reply = queue.shift() ?? (options.respond ? await options.respond(record) : undefined);
    if (!reply) {
      violations.push('no scripted reply for this request');
      return sendError(res, record, 400, 'fake Anthropic API: no scripted reply for this request');
    }
    if ('error' in reply) return sendError(res, record, reply.error, reply.message ?? `injected ${reply.error}`, reply.retryAfterMs);
    record.cache = cache.account(body as Record<string, unknown>);
    sendMessage(res, record, reply);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `fake crashed: ${String(error)}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
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

// All the text the user side sent, for responders that answer by content.
export function userText(request: RecordedRequest): string {
  return request.body.messages
    .filter((m) => m.role === 'user')
    .flatMap((m) =>
      typeof m.content === 'string'
        ? [m.content]
        : m.content.flatMap((b) => (b.type === 'text' ? [b.text] : b.type === 'tool_result' && typeof b.content === 'string' ? [b.content] : [])),
    )
    .join('\n');
}

function forcedToolOf(body: unknown): string | null {
  const choice = (body as { tool_choice?: { type?: unknown; name?: unknown } } | undefined)?.tool_choice;
  return choice?.type === 'tool' && typeof choice.name === 'string' ? choice.name : null;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function randomId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('base64url')}`;
}

function sendMessage(res: ServerResponse, record: RecordedRequest, reply: Exclude<FakeReply, { error: number }>): void {
  const accounting = record.cache!;
  const { content, stopReason } = messageOf(record, reply);
  record.status = 200;
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': randomId('req_') });
  res.end(
    JSON.stringify({
      id: randomId('msg_'),
      type: 'message',
      role: 'assistant',
      model: record.body.model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: {
        input_tokens: accounting.inputTokens,
        output_tokens: estimateTokens(JSON.stringify(content)),
        cache_creation_input_tokens: accounting.cacheCreationInputTokens,
        cache_read_input_tokens: accounting.cacheReadInputTokens,
      },
    }),
  );
}

function messageOf(record: RecordedRequest, reply: Exclude<FakeReply, { error: number }>): { content: unknown[]; stopReason: string } {
  if ('text' in reply) return { content: [{ type: 'text', text: reply.text }], stopReason: 'end_turn' };
  if ('content' in reply) {
    const content = reply.content.map((block) =>
      'text' in block
        ? { type: 'text', text: block.text }
        : { type: 'tool_use', id: block.toolUse.id ?? randomId('toolu_'), name: block.toolUse.name, input: block.toolUse.input },
    );
    return { content, stopReason: reply.stopReason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn') };
  }
  const toolUse = { type: 'tool_use', id: randomId('toolu_'), name: reply.toolName ?? record.forcedTool ?? 'unknown_tool', input: reply.toolInput };
  return { content: [toolUse], stopReason: reply.stopReason ?? 'tool_use' };
}

function sendError(res: ServerResponse, record: RecordedRequest, status: number, message: string, retryAfterMs?: number): void {
  record.status = status;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': randomId('req_') };
  if (retryAfterMs !== undefined) {
    headers['retry-after-ms'] = String(retryAfterMs);
    headers['retry-after'] = String(Math.ceil(retryAfterMs / 1000));
  }
  res.writeHead(status, headers);
  res.end(JSON.stringify({ type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } }));
}

// A responder that answers by the tool tool_choice forces: one function per tool, each returning
// that tool's input. A request forcing any other tool is answered with a 400 naming it.
export function answerByTool(answers: Record<string, (request: RecordedRequest) => unknown>): FakeResponder {
  return (request) => {
    const answer = request.forcedTool === null ? undefined : answers[request.forcedTool];
    return answer ? { toolInput: answer(request) } : { error: 400, message: `fake Anthropic API: no answer scripted for tool ${request.forcedTool}` };
  };
}
