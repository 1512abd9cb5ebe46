import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration, formatReward, formatTimestamp, shortHash } from './format.ts';

describe('format', () => {
  it('shortens hashes with or without the sha256: prefix', () => {
    expect(shortHash('sha256:0123456789abcdef0123')).toBe('0123456789ab');
    expect(shortHash('abcdef', 4)).toBe('abcd');
  });

  it('formats durations, sizes, rewards and timestamps independent of locale', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(3090)).toBe('3.1 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KiB');
    expect(formatReward(null)).toBe('—');
    expect(formatReward(1)).toBe('1');
    expect(formatReward(0.25)).toBe('0.250');
    expect(formatTimestamp('2026-01-01T12:03:04.000Z')).toBe('2026-01-01 12:03 UTC');
  });
});
