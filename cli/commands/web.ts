// `envolve web`: the dashboard's HTTP server. It is Next's production server behind one small
// step of our own, because `next start` cannot tell a client's X-Forwarded-For from a proxy's
// (it keeps whatever the client sent and drops the socket's address). Here the socket's peer
// and ENVOLVE_TRUSTED_PROXIES decide the client address and whether forwarded headers count,
// and requests the app would only fail on are answered 4xx first (lib/net/edge.ts).
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { parseTrustedProxies } from '../../lib/config/trusted-proxies.ts';
import { refusal, trustworthyHeaders } from '../../lib/net/edge.ts';
import { settings } from '../../lib/config/settings.ts';
import { logger } from '../../lib/log/logger.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

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
      const server = createServer((req, res) => {
        const request = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, socketAddress: req.socket.remoteAddress ?? '' };
        const refused = refusal(request);
        if (refused) {
          res.writeHead(refused.status, { 'content-type': 'application/json', connection: 'close' });
          res.end(JSON.stringify({ error: refused.error, message: refused.message }));
          return;
        }
        req.headers = trustworthyHeaders(request, proxies) as typeof req.headers;
        void handle(req, res);
      });
      server.listen(port, host, () => logger().info(`dashboard on http://${host.includes(':') ? `[${host}]` : host}:${port}`, { host, port }));
      const stop = () => server.close(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
}
