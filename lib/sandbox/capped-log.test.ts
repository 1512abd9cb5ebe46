import { describe, expect, it } from 'vitest';
import { CappedLog } from './capped-log.ts';

describe('CappedLog', () => {
  it('keeps everything under the cap', () => {
    const log = new CappedLog(100);
    log.write(Buffer.from('hello '));
    log.write(Buffer.from('world'));
    expect(log.toString()).toBe('hello world');
    expect(log.truncated).toBe(false);
  });

  it('keeps the head and the tail and marks what was dropped', () => {
    const log = new CappedLog(10);
    for (const c of 'abcdefghijklmnopqrstuvwxyz') log.write(Buffer.from(c));
    expect(log.truncated).toBe(true);
    expect(log.toString()).toBe('abcde\n[... 16 bytes of output truncated ...]\nvwxyz');
  });
});
