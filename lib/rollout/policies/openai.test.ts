import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAi, type FakeChatReply, type FakeOpenAi, type RecordedChatRequest } from '../../../test/fakes/openai-server.ts';
import { fakeEpisode } from '../../../test/fakes/policy-episode.ts';
import { OpenAiCompatiblePolicy, type OpenAiPolicyOptions } from './openai.ts';
import { waitFor } from '../../../test/fixtures/wait-for.ts';
import { limitMs, UNBUDGETED_STEP_MS } from '../../../test/budgets.ts';
import { settingsFrom } from '../../config/settings.ts';

const bash = (...commands: string[]): FakeChatReply => ({ toolCalls: commands.map((command) => ({ name: 'bash', arguments: { command } })) });

function policyFor(fake: FakeOpenAi, options: OpenAiPolicyOptions = {}): OpenAiCompatiblePolicy {
  return new OpenAiCompatiblePolicy(
    { maxRetries: 2, ...options },
    settingsFrom({ ENVOLVE_OPENAI_BASE_URL: fake.url, ENVOLVE_OPENAI_MODEL: 'policy-under-training' }).openai,
  );
}

const toolMessages = (request: RecordedChatRequest) => request.body.messages.filter((m) => m.role === 'tool');

describe('OpenAiCompatiblePolicy', () => {
  let fake: FakeOpenAi | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('runs tool calls through the terminal, answers each with a tool message, and stops at the final answer', async () => {
    fake = await startFakeOpenAi();
    fake.enqueue(
      { content: 'Looking first.', reasoning: 'The file may not exist yet.', toolCalls: [{ name: 'bash', arguments: { command: 'ls /app', timeout: 20 } }] },
      bash('echo hello > /app/out.txt'),
      { content: 'Done.' },
    );
    const run = fakeEpisode({ run: (command) => ({ output: `output of ${command}\n`, exitCode: 0 }) });
    await policyFor(fake).act(run.episode);

    expect(fake.violations()).toEqual([]);
    const steps = run.steps();
    expect(steps.map((s) => s.command)).toEqual(['ls /app', 'echo hello > /app/out.txt', undefined]);
    expect(steps[0]).toMatchObject({ timeoutSec: 20, note: { message: 'Looking first.', reasoning: 'The file may not exist yet.' } });
    expect(steps[2]!.note?.message).toBe('Done.');

    const [first, second, third] = fake.requests;
    expect(first!.body).toMatchObject({ model: 'policy-under-training', tool_choice: 'auto', seed: 1 });
    expect(first!.body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'bash', description: expect.any(String), parameters: expect.objectContaining({ type: 'object', required: ['command'] }) },
      },
    ]);
    expect(first!.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(first!.body.messages[0]!.content).toMatch(/Linux container[\s\S]*working directory is \/app\b/);
    expect(first!.body.messages[1]!.content).toBe('Write hello to /app/out.txt.');
    const callId = second!.body.messages[2]!.tool_calls![0]!.id;
    expect(toolMessages(second!)).toEqual([{ role: 'tool', tool_call_id: callId, content: 'output of ls /app\n\n[exit code 0]' }]);
    expect(third!.body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(first!.headers.authorization).toBeUndefined();
  });

  it('runs several tool calls of one message in order, each a step, and answers every one', async () => {
    fake = await startFakeOpenAi();
    fake.enqueue(
      {
        content: 'Three at once.',
        toolCalls: [
          { name: 'bash', arguments: { command: 'mkdir -p /app/out' } },
          { name: 'bash', arguments: '{"command": "echo 1 > /app/out/a"}' },
          { name: 'bash', arguments: { command: 'cat /app/out/a' } },
        ],
      },
      { content: 'ok' },
    );
    const run = fakeEpisode();
    await policyFor(fake).act(run.episode);

    expect(run.commands()).toEqual(['mkdir -p /app/out', 'echo 1 > /app/out/a', 'cat /app/out/a']);
    const steps = run.steps();
    // The message and the reply's usage go with the first call only: nothing is counted twice.
    expect(steps[0]!.note).toMatchObject({ message: 'Three at once.', usage: { promptTokens: expect.any(Number) } });
    expect(steps[1]!.note).toBeUndefined();
    expect(steps[2]!.note).toBeUndefined();
    const ids = fake.requests[1]!.body.messages[2]!.tool_calls!.map((c) => c.id);
    expect(toolMessages(fake.requests[1]!).map((m) => m.tool_call_id)).toEqual(ids);
    expect(fake.violations()).toEqual([]);
  });

  it('reports the server’s token usage per turn, with cached prompt tokens', async () => {
    fake = await startFakeOpenAi();
    fake.enqueue(
      { ...bash('ls'), usage: { prompt_tokens: 900, completion_tokens: 40, cached_tokens: 0 } },
      { ...bash('pwd'), usage: { prompt_tokens: 1100, completion_tokens: 35, cached_tokens: 896 } },
      { content: 'done', usage: { prompt_tokens: 1300, completion_tokens: 12, cached_tokens: 1088 } },
    );
    const run = fakeEpisode();
    await policyFor(fake).act(run.episode);
    expect(run.steps().map((s) => s.note?.usage)).toEqual([
      { promptTokens: 900, completionTokens: 40, cachedTokens: 0 },
      { promptTokens: 1100, completionTokens: 35, cachedTokens: 896 },
      { promptTokens: 1300, completionTokens: 12, cachedTokens: 1088 },
    ]);
  });

  it('stops at the turn limit, also in the middle of a message’s tool calls', async () => {
    fake = await startFakeOpenAi({ respond: (request) => bash(`echo ${request.index}a`, `echo ${request.index}b`) });
    const run = fakeEpisode({ maxTurns: 3 });
    await policyFor(fake).act(run.episode);
    expect(run.commands()).toEqual(['echo 0a', 'echo 0b', 'echo 1a']);
    expect(fake.requests).toHaveLength(2);

    const capped = fakeEpisode({ maxTurns: 50 });
    await policyFor(fake, { maxTurns: 1 }).act(capped.episode);
    expect(capped.commands()).toHaveLength(1);
  });

  it('returns promptly when the wall-clock budget aborts a request in flight or a retry wait', async () => {
    const controller = new AbortController();
    // The budget runs out once the request has reached the server (a fixed timer could fire before
    // it gets there on a loaded machine, and then nothing was in flight).
    fake = await startFakeOpenAi({
      respond: () => {
        controller.abort();
        return new Promise<FakeChatReply>((resolve) => setTimeout(() => resolve({ content: 'late' }), 10_000));
      },
    });
    const run = fakeEpisode({ signal: controller.signal });
    let started = Date.now();
    await policyFor(fake).act(run.episode);
    // The server answers after 10 s: returning well before that means the abort cut the request.
    expect(Date.now() - started).toBeLessThan(9_000);
    expect(run.steps()).toEqual([]);
    expect(fake.requests).toHaveLength(1);

    await fake.close();
    fake = await startFakeOpenAi();
    fake.enqueue({ error: 503, retryAfterMs: 30_000 });
    // The budget runs out while the policy waits to retry: once the first request was answered.
    const waiting = new AbortController();
    started = Date.now();
    const acting = policyFor(fake).act(fakeEpisode({ signal: waiting.signal }).episode);
    await waitFor(async () => fake!.requests.length === 1, limitMs(UNBUDGETED_STEP_MS)); // a request on loopback
    waiting.abort();
    await acting;
    // Returning well before the 30 s Retry-After means the abort cut the wait.
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries 500, 503 and 429 answers with backoff, then carries on', async () => {
    fake = await startFakeOpenAi();
    fake.enqueue({ error: 500 }, { error: 503, retryAfterMs: 10 }, bash('ls'), { error: 429, retryAfterMs: 10 }, { content: 'done' });
    const run = fakeEpisode();
    const started = Date.now();
    await policyFor(fake).act(run.episode);
    expect(fake.requests.map((r) => r.status)).toEqual([500, 503, 200, 429, 200]);
    // The first retry waited the SDK's initial backoff: 0.5 s less up to 25 % jitter (openai's client.ts).
    expect(Date.now() - started).toBeGreaterThanOrEqual(375);
    expect(run.commands()).toEqual(['ls']);
  });

  it('throws a clear error with the status and the body when the server keeps failing or refuses', async () => {
    fake = await startFakeOpenAi();
    fake.enqueue({ error: 502, retryAfterMs: 1 }, { error: 502, retryAfterMs: 1 }, { error: 502, retryAfterMs: 1, body: 'upstream model worker died' });
    await expect(policyFor(fake).act(fakeEpisode().episode)).rejects.toThrow(
      /chat\/completions failed after 2 retries: answered 502: upstream model worker died$/,
    );
    fake.enqueue({ error: 400, body: JSON.stringify({ object: 'error', message: "This model's maximum context length is 32768 tokens", code: 400 }) });
    await expect(policyFor(fake).act(fakeEpisode().episode)).rejects.toThrow(
      /failed \(not retryable\): answered 400: .*maximum context length is 32768 tokens/,
    );
    fake.enqueue({ raw: '{"choices": []}' });
    await expect(policyFor(fake).act(fakeEpisode().episode)).rejects.toThrow(/no usable chat completion \(choices: .*\)/);
    // The OpenAI error shape too, {"error": {"message": ...}}: the server's message, not the JSON around it.
    fake.enqueue({ error: 401, body: JSON.stringify({ error: { message: 'invalid API key', type: 'AuthenticationError', code: 401 } }) });
    await expect(policyFor(fake).act(fakeEpisode().episode)).rejects.toThrow(/failed \(not retryable\): answered 401: invalid API key$/);
    fake.enqueue({ raw: '<html>Bad Gateway</html>' });
    // The SDK parses the body (the fake labels it JSON); the parser's message quotes its start.
    await expect(policyFor(fake).act(fakeEpisode().episode)).rejects.toThrow(/answered 200 with a body that is not JSON: .*"<html>Bad /);
  });

  it('waits as long as a 429’s Retry-After (in seconds) says, then carries on', async () => {
    fake = await startFakeOpenAi();
    fake.enqueue({ error: 429, retryAfterSec: 2 }, { content: 'done' });
    const run = fakeEpisode();
    await policyFor(fake).act(run.episode);
    expect(fake.requests.map((r) => r.status)).toEqual([429, 200]);
    // Longer than the default backoff before a first retry (at most 0.5 s): the server's 2 s.
    expect(fake.requests[1]!.receivedAt - fake.requests[0]!.receivedAt).toBeGreaterThanOrEqual(1900);
    expect(run.steps()[0]!.note?.message).toBe('done');
  });

  it('gives up on a request that gets no answer within the request timeout, retries it, then says so', async () => {
    const requestTimeoutMs = 300;
    fake = await startFakeOpenAi({ respond: () => new Promise<FakeChatReply>(() => {}) });
    await expect(policyFor(fake, { requestTimeoutMs, maxRetries: 1 }).act(fakeEpisode().episode)).rejects.toThrow(
      `openai policy: ${fake.url}/chat/completions failed after 1 retries: no answer within the request timeout of ${requestTimeoutMs} ms`,
    );
    expect(fake.requests).toHaveLength(2);
  });

  it('reads no OPENAI_* variables: without a configured key no Authorization header is sent', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-meant-for-something-else');
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/v1');
    vi.stubEnv('OPENAI_ORG_ID', 'org-else');
    try {
      fake = await startFakeOpenAi();
      fake.enqueue({ content: 'done' });
      await policyFor(fake).act(fakeEpisode().episode);
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]!.headers.authorization).toBeUndefined();
      expect(fake.requests[0]!.headers['openai-organization']).toBeUndefined();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('says when the server cannot be reached', async () => {
    fake = await startFakeOpenAi();
    const url = fake.url;
    await fake.close();
    fake = undefined;
    await expect(policyFor({ url } as FakeOpenAi, { maxRetries: 0 }).act(fakeEpisode().episode)).rejects.toThrow(
      `openai policy: ${url}/chat/completions failed after 0 retries: could not be reached`,
    );
  });

  it('answers malformed calls with an explanation instead of running them', async () => {
    fake = await startFakeOpenAi();
    fake.enqueue(
      {
        toolCalls: [
          { name: 'bash', arguments: '{"command": "ls' },
          { name: 'shell', arguments: { command: 'ls' } },
          { name: 'bash', arguments: { command: '' } },
        ],
      },
      { content: 'stopping' },
    );
    const run = fakeEpisode();
    await policyFor(fake).act(run.episode);
    expect(run.commands()).toEqual([]);
    expect(toolMessages(fake.requests[1]!).map((m) => m.content)).toEqual([
      expect.stringMatching(/arguments are not valid JSON/),
      expect.stringMatching(/unknown function shell/),
      expect.stringMatching(/invalid bash input \(command: /),
    ]);
    expect(fake.violations()).toEqual([]);
  });

  it('sends the API key as a bearer token and max_tokens when configured, and records a cut-off reply', async () => {
    fake = await startFakeOpenAi();
    fake.enqueue({ content: 'I was about to', finishReason: 'length' });
    const run = fakeEpisode();
    await new OpenAiCompatiblePolicy(
      { maxTokens: 64 },
      settingsFrom({ ENVOLVE_OPENAI_BASE_URL: `${fake.url}/`, ENVOLVE_OPENAI_MODEL: 'm', ENVOLVE_OPENAI_API_KEY: 'sk-local' }).openai,
    ).act(run.episode);
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-local');
    expect(fake.requests[0]!.body.max_tokens).toBe(64);
    expect(run.steps()[0]!.note?.message).toMatch(/^I was about to\n\n\[the reply was cut off/);
  });

  it('needs a base URL and a model and says which variables to set', () => {
    expect(() => new OpenAiCompatiblePolicy({}, settingsFrom({ ENVOLVE_OPENAI_MODEL: 'm' }).openai)).toThrow(/set ENVOLVE_OPENAI_BASE_URL/);
    expect(() => new OpenAiCompatiblePolicy({}, settingsFrom({ ENVOLVE_OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' }).openai)).toThrow(
      /set ENVOLVE_OPENAI_MODEL/,
    );
    expect(() => new OpenAiCompatiblePolicy({ baseUrl: 'localhost:8000', model: 'm' }, settingsFrom({}).openai)).toThrow(/must be http\(s\)/);
    expect(() => settingsFrom({ ENVOLVE_OPENAI_BASE_URL: 'localhost:8000' })).toThrow(/ENVOLVE_OPENAI_BASE_URL: expected an http/);
    expect(() => new OpenAiCompatiblePolicy({ baseUrl: 'not a url', model: 'm' }, settingsFrom({}).openai)).toThrow(/is not a URL/);
    const policy = new OpenAiCompatiblePolicy(
      { model: 'explicit' },
      settingsFrom({ ENVOLVE_OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', ENVOLVE_OPENAI_MODEL: 'from-env' }).openai,
    );
    expect(policy).toMatchObject({ name: 'openai', model: 'explicit', simulated: false });
  });
});
