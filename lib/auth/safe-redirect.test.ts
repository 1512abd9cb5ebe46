import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './safe-redirect.ts';

describe('the one safe redirect', () => {
  it('keeps paths on this site, with their query', () => {
    expect(safeRedirectPath('/generations/abc?tab=diff')).toBe('/generations/abc?tab=diff');
    expect(safeRedirectPath('/calibration')).toBe('/calibration');
  });

  it('refuses other sites however they are spelled', () => {
    for (const next of [
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r\n/evil.example',
      '//evil.example',
      '/\\evil.example',
      '/%09/evil.example/..',
      'https://evil.example',
      'evil.example',
      '/\u0000/evil.example',
      '/\u007f/x',
    ]) {
      const target = safeRedirectPath(next);
      expect(new URL(target, 'http://envolve.test').origin, JSON.stringify(next)).toBe('http://envolve.test');
      // eslint-disable-next-line no-control-regex -- the test looks for control characters
      expect(target).not.toMatch(/[\u0000-\u001f]/);
    }
    expect(safeRedirectPath('/\t/evil.example')).toBe('/');
  });

  it('refuses header-splitting characters (a CR/LF in next= was a 500) and non-strings', () => {
    expect(safeRedirectPath('/x\r\nset-cookie: a=b')).toBe('/');
    expect(safeRedirectPath(undefined)).toBe('/');
    expect(safeRedirectPath(['/a'])).toBe('/');
    expect(safeRedirectPath('/sign-in?next=/x')).toBe('/');
  });
});
