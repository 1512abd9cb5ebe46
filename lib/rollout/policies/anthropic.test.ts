import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeReply, type RecordedRequest } from '../../../test/fakes/anthropic-server.ts';
import { fakeEpisode } from '../../../test/fakes/policy-episode.ts';
import { AnthropicPolicy } from './anthropic.ts';
import { settingsFrom } from '../../config/settings.ts';

const bash = (command: string, extra: Record<string, unknown> = {}): FakeReply => ({ content: [{ toolUse: { name: 'bash', input: { command, ...extra } } }] });

function policyFor(fake: FakeAnthropic, options: ConstructorParameters<typeof AnthropicPolicy>[0] = {}): AnthropicPolicy {
  return new AnthropicPolicy(
    { maxRetries: 2, ...options },
    settingsFrom({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url, ENVOLVE_POLICY_MODEL: 'claude-agent-test' }).anthropic,
  );
}

// The tool_result blocks of a request's last message.
function toolResults(request: RecordedRequest): ToolResultBlockParam[] {
  const last = request.body.messages[request.body.messages.length - 1]!;
  const blocks: readonly { type: string }[] = Array.isArray(last.content) ? last.content : [];
  return blocks.filter((b): b is ToolResultBlockParam => b.type === 'tool_result');
}

describe('AnthropicPolicy', () => {
  let fake: FakeAnthropic | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('runs each bash call through the terminal, sends the result back, and stops at the final answer', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue(
      { content: [{ text: 'Let me look around.' }, { toolUse: { name: 'bash', input: { command: 'ls /app' } } }] },
      bash('echo hello > /app/out.txt', { timeout: 30 }),
      { text: 'Done: /app/out.txt holds hello.' },
    );
    const run = fakeEpisode({ run: (command) => ({ output: `output of ${command}\n`, exitCode: command.startsWith('ls') ? 0 : 3 }) });
    await policyFor(fake).act(run.episode);

    expect(fake.violations()).toEqual([]);
    const steps = run.steps();
    expect(steps.map((s) => s.command)).toEqual(['ls /app', 'echo hello > /app/out.txt', undefined]);
    expect(steps[1]!.timeoutSec).toBe(30);
    expect(steps[0]!.note?.message).toBe('Let me look around.');
    expect(steps[2]!.note?.message).toBe('Done: /app/out.txt holds hello.');

    const [first, second, third] = fake.requests;
    expect(first!.body.model).toBe('claude-agent-test');
    expect(first!.body.messages).toHaveLength(1);
    expect(JSON.stringify(first!.body.messages[0]!.content)).toContain('Write hello to /app/out.txt.');
    const system = (first!.body.system as { text: string }[])[0]!.text;
    expect(system).toMatch(/Linux container/);
    expect(system).toMatch(/working directory is \/app\b/); // the task's Dockerfile WORKDIR
    expect(first!.body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });

    // Each result answers the tool_use it belongs to, with the output and the exit code.
    const firstToolUse = (second!.body.messages[1]!.content as { type: string; id?: string }[]).find((b) => b.type === 'tool_use');
    expect(toolResults(second!)).toMatchObject([{ tool_use_id: firstToolUse!.id, content: 'output of ls /app\n\n[exit code 0]' }]);
    expect(toolResults(third!)[0]!.content).toBe('output of echo hello > /app/out.txt\n\n[exit code 3]');
    expect(third!.body.messages).toHaveLength(5);
  });

  it('marks the tool catalogue, the system prompt and the conversation tail for prompt caching, and reads the cache back', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue(bash('ls'), bash('pwd'), { text: 'done' });
    // A long instruction makes the prefix cacheable (the fake, like the API, has a minimum length).
    const run = fakeEpisode({ instruction: `Solve this.\n${'Context line about the task. '.repeat(300)}` });
    await policyFor(fake).act(run.episode);

    for (const request of fake.requests) {
      const tools = request.body.tools!;
      expect(tools[tools.length - 1]).toMatchObject({ name: 'bash', cache_control: { type: 'ephemeral' } });
      const system = request.body.system as { cache_control?: unknown }[];
      expect(system[system.length - 1]!.cache_control).toEqual({ type: 'ephemeral' });
    }
    expect(fake.violations()).toEqual([]); // also: at most four breakpoints
    const cache = fake.requests.map((r) => r.cache!);
    expect(cache[0]!.cacheCreationInputTokens).toBeGreaterThan(1000);
    expect(cache[1]!.cacheReadInputTokens).toBeGreaterThanOrEqual(cache[0]!.cacheCreationInputTokens);
    expect(cache[2]!.cacheReadInputTokens).toBeGreaterThan(cache[1]!.cacheReadInputTokens);
  });

  it('reports each turn’s token usage with that turn’s command, and the final reply’s with the final message', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue(bash('ls'), bash('cat /app/out.txt'), { text: 'done' });
    const run = fakeEpisode({ instruction: `Solve this.\n${'Context line about the task. '.repeat(300)}` });
    await policyFor(fake).act(run.episode);

    const steps = run.steps();
    expect(steps).toHaveLength(3);
    const requests = fake.requests;
    steps.forEach((step, i) => {
      const cache = requests[i]!.cache!;
      expect(step.note?.usage).toEqual({
        promptTokens: cache.inputTokens + cache.cacheCreationInputTokens + cache.cacheReadInputTokens,
        completionTokens: expect.any(Number),
        cachedTokens: cache.cacheReadInputTokens,
      });
      expect(step.note!.usage!.completionTokens).toBeGreaterThan(0);
    });
    expect(steps[1]!.note!.usage!.cachedTokens).toBeGreaterThan(0);
  });

  it('stops at the episode’s turn limit, and at its own when that is lower', async () => {
    fake = await startFakeAnthropic({ respond: (request) => bash(`echo turn ${request.index}`) });
    const limited = fakeEpisode({ maxTurns: 3 });
    await policyFor(fake).act(limited.episode);
    expect(limited.commands()).toEqual(['echo turn 0', 'echo turn 1', 'echo turn 2']);
    expect(fake.requests).toHaveLength(3);

    const capped = fakeEpisode({ maxTurns: 10 });
    await policyFor(fake, { maxTurns: 2 }).act(capped.episode);
    expect(capped.commands()).toHaveLength(2);
  });

  it('returns promptly when the wall-clock budget aborts a request in flight', async () => {
    const controller = new AbortController();
    // The budget runs out once the request has reached the server (a fixed timer could fire before
    // it gets there on a loaded machine, and then nothing was in flight).
    fake = await startFakeAnthropic({
      respond: () => {
        controller.abort();
        return new Promise<FakeReply>((resolve) => setTimeout(() => resolve({ text: 'late' }), 10_000));
      },
    });
    const run = fakeEpisode({ signal: controller.signal });
    const started = Date.now();
    await policyFor(fake).act(run.episode);
    // The server answers after 10 s: returning well before that means the abort cut the request.
    expect(Date.now() - started).toBeLessThan(9_000);
    expect(run.steps()).toEqual([]);
    expect(fake.requests).toHaveLength(1); // not retried
  });

  it('asks nothing more once the budget aborts a command', async () => {
    fake = await startFakeAnthropic({ respond: () => bash('sleep 100') });
    const controller = new AbortController();
    const run = fakeEpisode({
      signal: controller.signal,
      run: () => {
        controller.abort();
        return { output: '', exitCode: null, timedOut: true };
      },
    });
    await policyFor(fake).act(run.episode);
    expect(run.commands()).toEqual(['sleep 100']);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries 529 overloaded and 500 answers, then carries on', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue({ error: 529, retryAfterMs: 10 }, { error: 500, retryAfterMs: 10 }, bash('ls'), { error: 429, retryAfterMs: 10 }, { text: 'done' });
    const run = fakeEpisode();
    await policyFor(fake).act(run.episode);
    expect(fake.requests.map((r) => r.status)).toEqual([529, 500, 200, 429, 200]);
    expect(run.commands()).toEqual(['ls']);
    expect(run.steps()[1]!.note?.message).toBe('done');
  });

  it('throws a clear error when the API keeps failing or refuses the request', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue({ error: 529, retryAfterMs: 10 }, { error: 529, retryAfterMs: 10 }, { error: 529, retryAfterMs: 10 });
    await expect(policyFor(fake).act(fakeEpisode().episode)).rejects.toThrow(/^anthropic policy: the Anthropic API answered 529 after 2 retries/);
    fake.enqueue({ error: 400, message: 'prompt is too long' });
    await expect(policyFor(fake).act(fakeEpisode().episode)).rejects.toThrow(/answered 400 \(not retryable\).*prompt is too long/);
  });

  it('sends a malformed call back as an error result without running anything', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue(
      { content: [{ toolUse: { name: 'bash', input: { cmd: 'ls' } } }] },
      { content: [{ toolUse: { name: 'python', input: { code: '1' } } }] },
      { text: 'giving up' },
    );
    const run = fakeEpisode();
    await policyFor(fake).act(run.episode);
    expect(run.commands()).toEqual([]);
    expect(toolResults(fake.requests[1]!)[0]).toMatchObject({ is_error: true, content: expect.stringMatching(/invalid bash input \(command: .*\)/) });
    expect(toolResults(fake.requests[2]!)[0]).toMatchObject({ is_error: true, content: expect.stringMatching(/unknown tool python/) });
    // The three replies' tokens are not lost: they land on the one message-only step.
    const [final] = run.steps();
    expect(final!.note?.message).toBe('giving up');
    expect(final!.note?.usage?.completionTokens).toBeGreaterThan(0);
  });

  it('shows the model a long output shortened in the middle, while the terminal result stays whole', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue(bash('cat big.log'), { text: 'done' });
    const big = `FIRST LINE\n${'x'.repeat(200_000)}\nLAST LINE`;
    const run = fakeEpisode({ run: () => ({ output: big }) });
    await policyFor(fake).act(run.episode);
    expect(run.steps()[0]!.result!.output).toBe(big);
    const shown = toolResults(fake.requests[1]!)[0]!.content as string;
    expect(shown.length).toBeLessThan(13_000);
    expect(shown).toMatch(/^FIRST LINE/);
    expect(shown).toMatch(/\[\.\.\. \d+ characters omitted from the middle of this output \.\.\.\]/);
    expect(shown).toMatch(/LAST LINE\n\[exit code 0\]$/);
  });

  it('records a reply cut off at max_tokens as the final message', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue({ content: [{ text: 'I will now write a very long' }], stopReason: 'max_tokens' });
    const run = fakeEpisode();
    await policyFor(fake, { maxTokens: 16 }).act(run.episode);
    expect(fake.requests[0]!.body.max_tokens).toBe(16);
    expect(run.steps()[0]!.note?.message).toMatch(/^I will now write a very long\n\n\[the reply was cut off/);
  });

  it('needs an API key and says which variable to set', () => {
    expect(() => new AnthropicPolicy({}, settingsFrom({}).anthropic)).toThrow(/set ANTHROPIC_API_KEY/);
    expect(() => new AnthropicPolicy({ maxTurns: 0 }, settingsFrom({ ANTHROPIC_API_KEY: 'k' }).anthropic)).toThrow(/maxTurns must be a positive integer/);
    const policy = new AnthropicPolicy(
      { model: 'claude-explicit' },
      settingsFrom({ ANTHROPIC_API_KEY: 'k', ENVOLVE_POLICY_MODEL: 'claude-from-env' }).anthropic,
    );
    expect(policy.model).toBe('claude-explicit');
    expect(policy).toMatchObject({ name: 'anthropic', simulated: false });
  });
});
