// `envolve web`: the dashboard's HTTP server. It is Next's production server behind one small
// step of our own, because `next start` cannot tell a client's X-Forwarded-For from a proxy's
// (it keeps whatever the client sent and drops the socket's address). Here the socket's peer
// and ENVOLVE_TRUSTED_PROXIES decide the client address and whether forwarded headers count,
// and requests the app would only fail on are answered 4xx first (lib/net/edge.ts). Every
// response carries the security headers, the edge's own answers included.
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { parseTrustedProxies, type TrustedProxies, settings } from '../../lib/config/index.ts';
import {
  actionRefusal,
  connectionCapKey,
  DEFAULT_SECURITY_HEADERS,
  edgeResponseHeaders,
  CONNECTIONS_CHECK_INTERVAL_MS,
  HEADERS_TIMEOUT_MS,
  MAX_CONNECTIONS_PER_ADDRESS,
  rawResponse,
  refusal,
  REQUEST_TIMEOUT_MS,
  trustworthyHeaders,
  type EdgeChecks,
  servedOrigins,
} from '../../lib/net/index.ts';
import { logger } from '../../lib/log/index.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// Next's own parser of the router-state header: the edge refuses exactly what Next would fail on.
function nextChecks(): EdgeChecks {
  const require = createRequire(path.join(ROOT, 'package.json'));
  const { parseAndValidateFlightRouterState } = require('next/dist/server/app-render/parse-and-validate-flight-router-state') as {
    parseAndValidateFlightRouterState: (header: string | string[]) => unknown;
  };
  return {
    routerStateValid: (header) => {
      try {
        parseAndValidateFlightRouterState(header);
        return true;
      } catch {
        return false;
      }
    },
  };
}

// The node:http errors a client causes (an unparsable request, headers or body too slow), answered with the security headers.
function onClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const [status, reason, error] = timedOut
    ? [408, 'Request Timeout', 'request_timeout']
    : tooLarge
      ? [431, 'Request Header Fields Too Large', 'headers_too_large']
      : [400, 'Bad Request', 'bad_request'];
  socket.end(rawResponse(status, reason, { error, message: timedOut ? 'the request did not arrive in time' : 'the request could not be parsed' }));
}

// At most MAX_CONNECTIONS_PER_ADDRESS open connections per client address: slow clients cannot hold them all.
function capConnections(server: Server, proxies: TrustedProxies): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const key = connectionCapKey(socket.remoteAddress ?? '', proxies);
    if (key === null) return;
    const count = (open.get(key) ?? 0) + 1;
    if (count > MAX_CONNECTIONS_PER_ADDRESS) {
      socket.end(
        rawResponse(429, 'Too Many Requests', { error: 'too_many_connections', message: `at most ${MAX_CONNECTIONS_PER_ADDRESS} open connections per client` }),
      );
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}

export function registerWebCommand(program: Command): void {
  program
    .command('web')
    .description('serve the dashboard (a `next build` first) on HOST:PORT, default 127.0.0.1:3000')
    .action(async () => {
      const { host, port, trustedProxies } = settings().web;
      const proxies = parseTrustedProxies(trustedProxies);
      // What `next start` sets before loading the server: Next reads these from the process environment.
      Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV || 'production', NEXT_RUNTIME: 'nodejs' });
      const { default: next } = await import('next');
      const app = next({ dev: false, dir: ROOT, hostname: host, port });
      const handle = app.getRequestHandler();
      await app.prepare();
      const checks = nextChecks();
      const served = servedOrigins();
      // connectionsCheckingInterval: how often node:http looks for requests past their time limits.
      const server = createServer(
        { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: CONNECTIONS_CHECK_INTERVAL_MS },
        (req, res) => {
          const request = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, socketAddress: req.socket.remoteAddress ?? '' };
          const headers = trustworthyHeaders(request, proxies);
          const refused = refusal(request, checks) ?? actionRefusal(request.method, request.url, headers, served);
          if (refused) {
            res.writeHead(refused.status, edgeResponseHeaders());
            res.end(JSON.stringify({ error: refused.error, message: refused.message }));
            return;
          }
          req.headers = headers as typeof req.headers;
          // The app's own headers (next.config.ts, proxy.ts) replace these where they say more.
          for (const [name, value] of Object.entries(DEFAULT_SECURITY_HEADERS)) res.setHeader(name, value);
          void handle(req, res);
        },
      );
      server.on('clientError', onClientError);
      capConnections(server, proxies);
      server.listen(port, host, () => logger().info(`dashboard on http://${host.includes(':') ? `[${host}]` : host}:${port}`, { host, port }));
      const stop = () => server.close(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
}
