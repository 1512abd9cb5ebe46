import { afterEach, describe, expect, it } from 'vitest';
import { bundleOf, validTaskFiles } from '../../../test/env/task-fixtures.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../../../test/fakes/anthropic-server.ts';
import { AnthropicSynthesiser } from './synthesiser.ts';
import { AnthropicCallError } from './tool-client.ts';
import { settingsFrom } from '../../config/settings.ts';

const BUNDLE = bundleOf(validTaskFiles());
const STEPS = { steps: [{ id: 's1', scenario: 'app-config', skill: 'sed-rewrite', dependsOn: [], summary: 'write hello' }] };

describe('AnthropicSynthesiser retries', () => {
  let fake: FakeAnthropic;
  afterEach(() => fake.close());

  it('retries a 429 (retry-after) and a 529 overloaded (SDK backoff) and then succeeds', async () => {
    fake = await startFakeAnthropic({ respond: () => ({ toolInput: STEPS }) });
    fake.enqueue({ error: 429, retryAfterMs: 20 }, { error: 529 });
    const synth = new AnthropicSynthesiser({ apiKey: 'k', baseURL: fake.url, maxRetries: 2 }, settingsFrom({}).anthropic);
    expect((await synth.extractSequence(BUNDLE)).steps).toHaveLength(1);
    expect(fake.requests.map((r) => r.status)).toEqual([429, 529, 200]);
    expect(fake.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2']);
    // Failed attempts cost nothing; only the answered call is in the usage.
    expect(synth.usage().calls).toBe(1);
  });

  it('gives a clear error once the retry budget is spent', async () => {
    fake = await startFakeAnthropic({ respond: () => ({ toolInput: STEPS }) });
    fake.enqueue({ error: 529, retryAfterMs: 10 }, { error: 500, retryAfterMs: 10 }, { error: 529, retryAfterMs: 10 });
    const synth = new AnthropicSynthesiser({ apiKey: 'k', baseURL: fake.url, maxRetries: 2 }, settingsFrom({}).anthropic);
    const error = await synth.extractSequence(BUNDLE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnthropicCallError);
    expect((error as Error).message).toMatch(/^extract_sequence: the Anthropic API answered 529 after 2 retries: .*overloaded/);
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a request the API refuses as malformed', async () => {
    fake = await startFakeAnthropic({ respond: () => ({ toolInput: STEPS }) });
    fake.enqueue({ error: 400, message: 'bad request' });
    const synth = new AnthropicSynthesiser({ apiKey: 'k', baseURL: fake.url, maxRetries: 2 }, settingsFrom({}).anthropic);
    await expect(synth.extractSequence(BUNDLE)).rejects.toThrow(/answered 400 \(not retryable\)/);
    expect(fake.requests).toHaveLength(1);
  });

  it('says which endpoint it could not reach', async () => {
    fake = await startFakeAnthropic();
    const url = fake.url;
    await fake.close();
    const synth = new AnthropicSynthesiser({ apiKey: 'k', baseURL: url, maxRetries: 0 }, settingsFrom({}).anthropic);
    await expect(synth.extractSequence(BUNDLE)).rejects.toThrow(`extract_sequence: could not reach ${url} after 0 retries`);
    fake = await startFakeAnthropic(); // for afterEach
  });
});
