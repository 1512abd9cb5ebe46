import { describe, expect, it } from 'vitest';
import { CLIENT_ADDRESS_HEADER } from './client-address-header.ts';
import { parseTrustedProxies } from '../config/trusted-proxies.ts';
import { actionRefusal, connectionCapKey, edgeResponseHeaders, rawResponse, refusal as refusalWith, trustworthyHeaders, type EdgeRequest } from './edge.ts';
import type { ServedOrigins } from './origins.ts';

// A stand-in for Next's router-state parser: the edge only asks it yes or no.
const refusal = (request: EdgeRequest) => refusalWith(request, { routerStateValid: (header) => header === 'valid' });

const get = (url: string, headers: Record<string, string> = {}) => ({ method: 'GET', url, headers, socketAddress: '127.0.0.1' });
const post = (url: string, headers: Record<string, string>) => ({ method: 'POST', url, headers, socketAddress: '127.0.0.1' });

describe('requests the app would only fail on', () => {
  it('a malformed percent-encoding in the path is a 400, anywhere', () => {
    for (const url of ['/api/generations/%ZZ/comments', '/generations/%C3%28', '/%E0%A4%A', '/api/generations/%/x']) {
      expect(refusal(get(url))).toMatchObject({ status: 400, error: 'bad_path' });
    }
    expect(refusal(get('/generations/abc?q=%ZZ'))).toBeNull();
    expect(refusal(get('/environments/na%C3%AFve'))).toBeNull();
  });

  it('a body over the route cap is a 413 before the app reads it; one of unknown length a 411', () => {
    expect(refusal(post('/', { 'content-length': String(1024 * 1024 + 1), 'next-action': 'x' }))).toMatchObject({ status: 413 });
    expect(refusal(post('/', { 'content-length': '2000' }))).toBeNull();
    expect(refusal(post('/api/v1/trainer/groups', { 'content-length': String(65 * 1024) }))).toMatchObject({ status: 413 });
    expect(refusal(post('/api/generations/abc/comments', { 'content-length': String(300 * 1024) }))).toMatchObject({ status: 413 });
    expect(refusal(post('/api/auth/sign-in/email', { 'content-length': String(17 * 1024) }))).toMatchObject({ status: 413 });
    expect(refusal(post('/api/generations/abc/comments', { 'transfer-encoding': 'chunked' }))).toMatchObject({ status: 411 });
    expect(refusal(post('/api/generations/abc/comments', { 'content-length': 'lots' }))).toMatchObject({ status: 413 });
  });
});

describe('what Next should never see', () => {
  it('a request target that is not a path is a 400: `*` and absolute URLs', () => {
    for (const url of ['*', 'http://evil.example/sign-in', 'evil.example:443']) expect(refusal(get(url))).toMatchObject({ status: 400, error: 'bad_target' });
  });

  it('a router-state header the parser refuses is a 400; none, or a valid one, passes', () => {
    expect(refusal(get('/sign-in', { rsc: '1', 'next-router-state-tree': 'garbage' }))).toMatchObject({ status: 400, error: 'bad_router_state' });
    expect(refusal(get('/sign-in', { rsc: '1', 'next-router-state-tree': 'valid' }))).toBeNull();
    expect(refusal(get('/sign-in', { rsc: '1' }))).toBeNull();
  });

  it('a server action needs an Origin this deployment is served on: none, or https for an http site, is a 403', () => {
    const served: ServedOrigins = { baseURL: 'http://127.0.0.1:3000', origins: ['http://127.0.0.1:3000', 'http://localhost:3000'] };
    const action = (headers: Record<string, string>) => actionRefusal('POST', '/sign-in', { host: '127.0.0.1:3000', ...headers }, served);
    expect(action({})).toMatchObject({ status: 403, error: 'bad_origin' });
    expect(action({ origin: 'https://127.0.0.1:3000' })).toMatchObject({ status: 403 });
    expect(action({ origin: 'http://evil.example' })).toMatchObject({ status: 403 });
    expect(action({ origin: 'http://localhost:3000' })).toBeNull();
    // Reads and the JSON API (which checks Origin itself, lib/auth/guard.ts) are not server actions.
    expect(actionRefusal('GET', '/sign-in', {}, served)).toBeNull();
    expect(actionRefusal('POST', '/api/auth/sign-in/email', {}, served)).toBeNull();
  });

  it("the edge's own answers carry the security headers", () => {
    expect(edgeResponseHeaders()).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy': expect.stringContaining("frame-ancestors 'none'"),
    });
    const raw = rawResponse(429, 'Too Many Requests', { error: 'too_many_connections', message: 'slow down' });
    expect(raw).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
    expect(raw).toContain('x-frame-options: DENY\r\n');
    expect(raw.endsWith('\r\n\r\n{"error":"too_many_connections","message":"slow down"}')).toBe(true);
  });

  it('connections are capped per client address, never for a trusted proxy', () => {
    expect(connectionCapKey('::ffff:192.0.2.1', parseTrustedProxies(''))).toBe('192.0.2.1');
    expect(connectionCapKey('127.0.0.1', parseTrustedProxies('127.0.0.1'))).toBeNull();
  });
});

describe('headers a client can forge', () => {
  it('are dropped unless the peer is a trusted proxy, and the resolved address is set', () => {
    const forged = {
      'x-forwarded-for': '6.6.6.6',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
      [CLIENT_ADDRESS_HEADER]: '6.6.6.6',
      host: '127.0.0.1:3000',
    };
    const direct = trustworthyHeaders({ ...get('/'), headers: forged, socketAddress: '192.0.2.10' }, parseTrustedProxies(''));
    expect(direct).toEqual({ host: '127.0.0.1:3000', [CLIENT_ADDRESS_HEADER]: '192.0.2.10' });

    const viaProxy = trustworthyHeaders({ ...get('/'), headers: forged, socketAddress: '127.0.0.1' }, parseTrustedProxies('127.0.0.1'));
    expect(viaProxy).toMatchObject({ 'x-forwarded-host': 'evil.example', [CLIENT_ADDRESS_HEADER]: '6.6.6.6' });
  });
});
