import { describe, expect, it } from 'vitest';
import { OWNER_LABEL, ownerLabel, ownerState, parseOwnerLabel, POOL_LABEL, selfIdentity } from './owner.ts';

describe('container ownership', () => {
  const self = selfIdentity();

  it('names this process by host, boot, pid namespace, pid and start time, and reads that back', () => {
    expect(parseOwnerLabel(ownerLabel(self))).toEqual(self);
    expect(self.start).toMatch(/^\d+$/);
    expect(parseOwnerLabel('not/an/owner')).toBeUndefined();
  });

  it('judges the owner alive only when the pid runs with the same start time (a reused pid is gone)', () => {
    expect(ownerState({ [OWNER_LABEL]: ownerLabel(self) })).toBe('alive');
    expect(ownerState({ [OWNER_LABEL]: ownerLabel({ ...self, start: String(Number(self.start) + 1) }) })).toBe('gone');
    // pid_max is at most 2^22: this pid cannot exist.
    expect(ownerState({ [OWNER_LABEL]: ownerLabel({ ...self, pid: 2 ** 22 + 1 }) })).toBe('gone');
  });

  it('does not judge owners on another host, kernel or pid namespace', () => {
    for (const other of [{ host: 'elsewhere' }, { boot: 'another-boot' }, { pidns: '1' }]) {
      expect(ownerState({ [OWNER_LABEL]: ownerLabel({ ...self, ...other, pid: 2 ** 22 + 1 }) })).toBe('unknown');
    }
    expect(ownerState({ [OWNER_LABEL]: 'garbage' })).toBe('unknown');
    expect(ownerState({})).toBe('unknown');
  });

  it('reads the older host:pid pool label by pid alone', () => {
    expect(ownerState({ [POOL_LABEL]: `${self.host}:${process.pid}` })).toBe('alive');
    expect(ownerState({ [POOL_LABEL]: `${self.host}:${2 ** 22 + 1}` })).toBe('gone');
    expect(ownerState({ [POOL_LABEL]: `elsewhere:${2 ** 22 + 1}` })).toBe('unknown');
  });
});
