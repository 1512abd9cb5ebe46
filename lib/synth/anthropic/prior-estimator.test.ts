import { afterEach, describe, expect, it } from 'vitest';
import { bundleOf, validTaskFiles } from '../../../test/env/task-fixtures.ts';
import { startFakeAnthropic, userText, type FakeAnthropic } from '../../../test/fakes/anthropic-server.ts';
import { AnthropicPriorEstimator } from './prior-estimator.ts';
import { AnthropicSynthesiser } from './synthesiser.ts';
import { ToolInputError } from './tool-client.ts';
import { settingsFrom } from '../../config/settings.ts';

describe('AnthropicPriorEstimator', () => {
  let fake: FakeAnthropic;
  afterEach(() => fake.close());

  it('estimates p(σ) and p(κ | σ) through a forced estimate_prior call', async () => {
    fake = await startFakeAnthropic({
      respond: (r) => ({ toolInput: { probability: userText(r).includes('p(κ | σ)') ? 0.2 : 0.01, rationale: 'niche' } }),
    });
    const estimator = new AnthropicPriorEstimator({ apiKey: 'k', baseURL: fake.url, model: 'claude-prior' }, settingsFrom({}).anthropic);
    expect(estimator.model).toBe('claude-prior');
    expect(await estimator.estimate('scenario', 'seismograph archive')).toBe(0.01);
    expect(await estimator.estimate('skill', 'xxd hex dump', 'seismograph archive')).toBe(0.2);
    expect(fake.violations()).toEqual([]);
    expect(fake.requests[1]!.body.tool_choice).toMatchObject({ type: 'tool', name: 'estimate_prior' });
    expect(userText(fake.requests[1]!)).toContain('κ = "xxd hex dump" given the scenario σ = "seismograph archive"');
    expect(estimator.calls()[1]!.cacheReadInputTokens).toBeGreaterThan(0);
  });

  it('reads the method prefix the synthesiser cached', async () => {
    fake = await startFakeAnthropic({
      respond: (r) =>
        r.forcedTool === 'estimate_prior'
          ? { toolInput: { probability: 0.5, rationale: 'common' } }
          : { toolInput: { steps: [{ id: 's1', scenario: 'a', skill: 'b', dependsOn: [], summary: 'c' }] } },
    });
    const options = { apiKey: 'k', baseURL: fake.url };
    await new AnthropicSynthesiser(options, settingsFrom({}).anthropic).extractSequence(bundleOf(validTaskFiles()));
    const estimator = new AnthropicPriorEstimator(options, settingsFrom({}).anthropic);
    await estimator.estimate('scenario', 'web-access-log');
    expect(estimator.calls()[0]!.cacheReadInputTokens).toBeGreaterThan(0);
  });

  it('refuses a probability outside (0, 1) after one corrective turn', async () => {
    fake = await startFakeAnthropic({ respond: () => ({ toolInput: { probability: 1.5, rationale: 'certain' } }) });
    const estimator = new AnthropicPriorEstimator({ apiKey: 'k', baseURL: fake.url }, settingsFrom({}).anthropic);
    const error = await estimator.estimate('scenario', 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolInputError);
    expect((error as Error).message).toMatch(/probability/);
    expect(fake.requests).toHaveLength(2);
  });
});
