// A unix-socket proxy in front of the Docker socket: a "Docker host" a test can take away by closing it.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SocketProxy {
  url: string; // unix:///…
  /** Stops accepting and cuts every open connection, as a host that goes away. */
  close(): Promise<void>;
  /** Listens again on the same path. */
  reopen(): Promise<void>;
}

export async function dockerSocketProxy(target = '/var/run/docker.sock'): Promise<SocketProxy> {
  const dir = mkdtempSync(path.join(tmpdir(), 'envolve-docker-proxy-'));
  const socketPath = path.join(dir, 'docker.sock');
  const open = new Set<net.Socket>();
  let server: net.Server | undefined;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target);
        open.add(client).add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          open.delete(client);
          open.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream).pipe(client);
      });
      server.listen(socketPath, resolve);
    });
  await listen();
  return {
    url: `unix://${socketPath}`,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      rmSync(socketPath, { force: true });
    },
    reopen: listen,
  };
}
