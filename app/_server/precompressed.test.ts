import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, precompressedJson } from './precompressed.ts';

const body = { json: '{"a":1}', gzip: async () => (await import('node:zlib')).gzipSync('{"a":1}') };

describe('precompressedJson', () => {
  it('sends the gzip to a client that accepts it, and the JSON as it is to one that does not', async () => {
    const zipped = await precompressedJson(new Request('http://x/', { headers: { 'accept-encoding': 'br, gzip;q=0.8' } }), body);
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString())).toEqual({ a: 1 });
    const plain = await precompressedJson(new Request('http://x/'), body);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.json()).toEqual({ a: 1 });
  });

  it('reads Accept-Encoding with its q-values', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0, br')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(null)).toBe(false);
  });
});
