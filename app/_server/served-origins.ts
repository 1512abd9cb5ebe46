// This server's origins, read once from the environment (see lib/net/origins.ts).
import { servedOrigins, type ServedOrigins } from '@/lib/net/index.ts';

let served: ServedOrigins | undefined;

export function configuredOrigins(): ServedOrigins {
  served ??= servedOrigins();
  return served;
}
