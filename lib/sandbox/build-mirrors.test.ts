import { describe, expect, it } from 'vitest';
import { settingsFrom } from '../config/settings.ts';
import { buildMirrorsSetting, mirrorBuildArgs, mirrorContextEntries, mirrorsRecord, withMirrorArgs } from './build-mirrors.ts';

describe('build mirrors', () => {
  it('come from the ENVOLVE_BUILD_* settings, only those set', () => {
    const s = settingsFrom({ ENVOLVE_BUILD_PIP_INDEX_URL: 'https://devpi.lab/root/pypi/+simple/', ENVOLVE_BUILD_GOPROXY: 'https://goproxy.lab,direct' });
    expect(buildMirrorsSetting(s)).toEqual({ pipIndexUrl: 'https://devpi.lab/root/pypi/+simple/', goProxy: 'https://goproxy.lab,direct' });
    expect(() => settingsFrom({ ENVOLVE_BUILD_PIP_INDEX_URL: 'devpi.lab' })).toThrow(/ENVOLVE_BUILD_PIP_INDEX_URL: expected an http/);
  });

  it('give each tool its variable, trusting a plain-http index host and both cases of the proxies', () => {
    expect(mirrorBuildArgs({ pipIndexUrl: 'http://mirror.lab:3141/simple/', httpProxy: 'http://proxy.lab:3128', npmRegistry: 'https://npm.lab/' })).toEqual({
      PIP_INDEX_URL: 'http://mirror.lab:3141/simple/',
      UV_INDEX_URL: 'http://mirror.lab:3141/simple/',
      PIP_TRUSTED_HOST: 'mirror.lab',
      npm_config_registry: 'https://npm.lab/',
      HTTP_PROXY: 'http://proxy.lab:3128',
      http_proxy: 'http://proxy.lab:3128',
    });
    expect(mirrorBuildArgs({})).toEqual({});
  });

  it('are declared after every FROM of the Dockerfile sent to the engine, the CA bundle copied in first', () => {
    const dockerfile = 'FROM sha256:aaa AS build\nRUN pip install x\nFROM sha256:bbb\nCOPY --from=build /x /x\n';
    expect(withMirrorArgs(dockerfile, { goProxy: 'https://goproxy.lab' })).toBe(
      'FROM sha256:aaa AS build\nARG GOPROXY\nRUN pip install x\nFROM sha256:bbb\nARG GOPROXY\nCOPY --from=build /x /x\n',
    );
    const withCa = withMirrorArgs('FROM x\n', { caBundle: '/etc/lab-ca.pem' }).split('\n');
    expect(withCa.slice(0, 3)).toEqual(['FROM x', 'COPY .envolve-build-ca.pem /usr/local/share/envolve-build-ca.pem', 'ARG SSL_CERT_FILE']);
    expect(withMirrorArgs(dockerfile, {})).toBe(dockerfile);
  });

  it('a CA bundle that cannot be read fails naming the setting', () => {
    expect(() => mirrorContextEntries({ caBundle: '/nonexistent/ca.pem' })).toThrow(/^ENVOLVE_BUILD_CA_BUNDLE=\/nonexistent\/ca.pem cannot be read/);
  });

  it('are recorded by setting name, without the password in a URL', () => {
    expect(mirrorsRecord({ pipIndexUrl: 'https://bot:s3cret@artifactory.lab/api/pypi/simple/', noProxy: 'localhost' })).toEqual({
      ENVOLVE_BUILD_PIP_INDEX_URL: 'https://***@artifactory.lab/api/pypi/simple/',
      ENVOLVE_BUILD_NO_PROXY: 'localhost',
    });
  });
});
