// Brings the database schema up to date when the server starts (see instrumentation.ts).
//
// The migration runs in a short-lived child process, through the same CLI command
// an operator would use. Prisma's schema engine switches its SQLite connection to
// EXCLUSIVE locking mode and migrateDatabase leaves that connection open; in a
// child, both end when it exits instead of living on in the server. It also keeps
// the migrator, which reads prisma/migrations relative to its own source file,
// out of the server bundle.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { logger } from '@/lib/log/index.ts';

const run = promisify(execFile);

export async function migrateOnStart(): Promise<void> {
  const cli = path.join(/* turbopackIgnore: true */ process.cwd(), 'bin', 'envolve.mjs');
  const { stdout } = await run(process.execPath, [cli, 'db', 'migrate']);
  if (stdout.trim()) logger().info(stdout.trim(), { component: 'migrate-on-start' });
}
