import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../../../test/fakes/anthropic-server.ts';
import { checkAnthropic } from './doctor.ts';
import { settingsFrom } from '../../config/settings.ts';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('envolve doctor', () => {
  it('says plainly that no key is set, without calling anything', async () => {
    const report = await checkAnthropic({}, settingsFrom({}).anthropic);
    expect(report).toEqual({ ok: false, configured: false, problem: expect.stringMatching(/no Anthropic API key is set: export ANTHROPIC_API_KEY/) });
  });

  it('reports the model, the latency and the cache tokens of one small call', async () => {
    fake = await startFakeAnthropic({ respond: () => ({ text: 'OK' }) });
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url, ENVOLVE_ANTHROPIC_MODEL: 'claude-doctor-test' };
    const first = await checkAnthropic({}, settingsFrom(env).anthropic);
    const second = await checkAnthropic({}, settingsFrom(env).anthropic);
    expect(fake.requests).toHaveLength(2);
    expect(first).toMatchObject({ ok: true, model: 'claude-doctor-test', endpoint: fake.url, answer: 'OK' });
    if (!first.ok || !second.ok) throw new Error('expected both checks to succeed');
    expect(first.latencyMs).toBeGreaterThanOrEqual(0);
    // The method prompt is written to the cache by the first call and read back by the second.
    expect(first.cacheCreationInputTokens).toBeGreaterThan(0);
    expect(second.cacheReadInputTokens).toBe(first.cacheCreationInputTokens);
  });

  it('names the failure when the endpoint refuses the key', async () => {
    fake = await startFakeAnthropic({ respond: () => ({ error: 401, message: 'invalid x-api-key' }) });
    const report = await checkAnthropic({}, settingsFrom({ ANTHROPIC_API_KEY: 'bad', ANTHROPIC_BASE_URL: fake.url }).anthropic);
    expect(report).toMatchObject({ ok: false, configured: true, problem: expect.stringMatching(/401/) });
  });
});
