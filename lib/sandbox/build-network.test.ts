import { describe, expect, it } from 'vitest';
import { settingsFrom } from '../config/settings.ts';
import { buildNetworkSetting, looksLikeNetworkFailure, networkFailureMessage } from './build-network.ts';

describe('the build network setting', () => {
  it('is on (default) unless set, and refuses unknown values naming the setting', () => {
    expect(buildNetworkSetting(settingsFrom({}))).toBe('default');
    expect(buildNetworkSetting(settingsFrom({ ENVOLVE_BUILD_NETWORK: 'none' }))).toBe('none');
    expect(buildNetworkSetting(settingsFrom({ ENVOLVE_BUILD_NETWORK: 'host' }))).toBe('host');
    expect(() => settingsFrom({ ENVOLVE_BUILD_NETWORK: 'bridge' })).toThrow('ENVOLVE_BUILD_NETWORK: expected one of default, host, none (got "bridge")');
  });
});

describe('network failures in a build log', () => {
  it('are recognised in apt, pip and curl output, and not in an ordinary failure', () => {
    expect(
      looksLikeNetworkFailure("W: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease  Temporary failure resolving 'deb.debian.org'"),
    ).toBe(true);
    expect(looksLikeNetworkFailure('WARNING: Retrying ... Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')).toBe(true);
    expect(looksLikeNetworkFailure('curl: (6) Could not resolve host: example.com')).toBe(true);
    expect(looksLikeNetworkFailure('make: *** [all] Error 2')).toBe(false);
  });

  it('are said in one sentence that names the setting', () => {
    const none = networkFailureMessage({ setting: 'none', mode: 'none' });
    expect(none).toBe('the build needs the network and ENVOLVE_BUILD_NETWORK=none gives it none; set ENVOLVE_BUILD_NETWORK=default to build it');
    const host = networkFailureMessage({ setting: 'default', mode: 'host' });
    expect(host).toContain('ENVOLVE_BUILD_NETWORK=default');
    for (const m of [none, host]) expect(m.split('. ')).toHaveLength(1);
  });
});
