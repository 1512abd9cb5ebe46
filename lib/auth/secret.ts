// The secret better-auth signs session cookies with. BETTER_AUTH_SECRET wins; without it
// the first process to start generates one and keeps it in a gitignored file under data/,
// so sessions survive restarts and the secret never enters the repository.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { settings } from '../config/index.ts';

export const SECRET_FILE = path.join('data', 'auth-secret');

export function loadAuthSecret(configured: string | undefined = settings().web.authSecret, file: string = SECRET_FILE): string {
  if (configured) return configured;
  const resolved = path.resolve(/* turbopackIgnore: true */ process.cwd(), file);
  try {
    return readFileSync(resolved, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(path.dirname(resolved), { recursive: true });
  try {
    // 'wx': when the web server and a worker start together, only one of them writes.
    writeFileSync(resolved, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readFileSync(resolved, 'utf8').trim();
}
