import { describe, expect, it } from 'vitest';
import { CLIENT_ADDRESS_HEADER } from './client-address-header.ts';
import { parseTrustedProxies } from '../config/trusted-proxies.ts';
import { refusal, trustworthyHeaders } from './edge.ts';

const get = (url: string, headers: Record<string, string> = {}) => ({ method: 'GET', url, headers, socketAddress: '127.0.0.1' });
const post = (url: string, headers: Record<string, string>) => ({ method: 'POST', url, headers, socketAddress: '127.0.0.1' });

describe('requests the app would only fail on', () => {
  it('a malformed percent-encoding in the path is a 400, anywhere (issue 18, finding 8)', () => {
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
