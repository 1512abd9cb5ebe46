// `envolve doctor`: is the configured Anthropic key usable, and does prompt caching work? One
// small call with the method prompt as a cached system block — the block every synthesiser call
// starts with — so the answer also says whether that prefix is written to, or read from, the
// cache. No key is an answer too, said plainly, not an exception.
import Anthropic from '@anthropic-ai/sdk';
import { settings, type Settings } from '../../config/index.ts';
import { resolveAnthropicConfig, type AnthropicOptions } from './config.ts';
import { methodBlock } from './prefix.ts';
import { describeFailure } from './tool-client.ts';
import { tokenCounts, type TokenCounts } from './usage.ts';

export type DoctorReport =
  | { ok: false; configured: false; problem: string }
  | { ok: false; configured: true; model: string; endpoint: string; problem: string }
  | ({ ok: true; configured: true; model: string; endpoint: string; latencyMs: number; answer: string } & TokenCounts);

export async function checkAnthropic(options: AnthropicOptions = {}, fromSettings: Settings['anthropic'] = settings().anthropic): Promise<DoctorReport> {
  if (!(options.apiKey ?? fromSettings.apiKey)) {
    return {
      ok: false,
      configured: false,
      problem: 'no Anthropic API key is set: export ANTHROPIC_API_KEY to use --synth anthropic (the procedural synthesiser needs none)',
    };
  }
  const config = resolveAnthropicConfig({ maxRetries: 0, ...options }, fromSettings);
  const endpoint = config.baseURL ?? 'https://api.anthropic.com';
  const client = new Anthropic({ apiKey: config.apiKey, baseURL: config.baseURL ?? null, maxRetries: config.maxRetries, timeout: 60_000 });
  const started = performance.now();
  try {
    const response = await client.messages.create({
      model: config.model,
      max_tokens: 16,
      system: [methodBlock()],
      messages: [{ role: 'user', content: 'Health check: reply with the single word OK.' }],
    });
    const latencyMs = Math.round(performance.now() - started);
    const answer = response.content
      .flatMap((b) => (b.type === 'text' ? [b.text] : []))
      .join('')
      .trim();
    return { ok: true, configured: true, model: response.model, endpoint, latencyMs, answer, ...tokenCounts(response.usage) };
  } catch (error) {
    return { ok: false, configured: true, model: config.model, endpoint, problem: describeFailure('doctor', config, error).message };
  }
}
