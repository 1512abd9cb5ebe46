// Prompt caching as the fake reports it. The real API caches the exact bytes of the request up
// to each cache_control breakpoint (tools → system → messages), per model, and only prefixes of
// at least a model-dependent minimum length; a later request whose prefix up to a breakpoint is
// byte-identical reads it back. The fake does the same with hashes and a chars/4 token estimate.
import { createHash } from 'node:crypto';
import { cacheSegments } from './anthropic-request-checks.ts';

export interface CacheAccounting {
  inputTokens: number; // neither read from nor written to the cache
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  hitPrefixHash: string | null; // the longest prefix read back, if any
}

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export class FakePromptCache {
  private readonly stored = new Set<string>();

  constructor(private readonly minCacheableTokens: number) {}

  account(body: Record<string, unknown>): CacheAccounting {
    const segments = cacheSegments(body);
    const model = String(body.model);
    let text = '';
    const breakpoints: { hash: string; tokens: number }[] = [];
    for (const segment of segments) {
      text += `${segment.json}\n`;
      if (segment.marker === undefined || segment.marker === null) continue;
      const tokens = estimateTokens(text);
      if (tokens < this.minCacheableTokens) continue;
      breakpoints.push({ hash: createHash('sha256').update(`${model}\n${text}`).digest('hex'), tokens });
    }
    const total = estimateTokens(text);
    const hit = [...breakpoints].reverse().find((b) => this.stored.has(b.hash));
    const read = hit?.tokens ?? 0;
    const written = Math.max(read, breakpoints[breakpoints.length - 1]?.tokens ?? 0) - read;
    for (const b of breakpoints) this.stored.add(b.hash);
    return {
      inputTokens: total - read - written,
      cacheCreationInputTokens: written,
      cacheReadInputTokens: read,
      hitPrefixHash: hit?.hash ?? null,
    };
  }
}
