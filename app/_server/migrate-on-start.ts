// Brings the database schema up to date when the server starts (see instrumentation.ts).
//
// The migration runs in a short-lived child process, through the same CLI command
// an operator would use. Prisma's schema engine puts its SQLite connection in
// EXCLUSIVE locking mode; in a process that lives on, that lock would keep every
// other process (CLI, workers) from migrating or writing. It also keeps the
// migrator, which reads prisma/migrations relative to its own source, out of the
// server bundle.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function migrateOnStart(): Promise<void> {
  const cli = path.join(/* turbopackIgnore: true */ process.cwd(), 'bin', 'envolve.mjs');
  const { stdout } = await run(process.execPath, [cli, 'db', 'migrate'], { env: process.env });
  if (stdout.trim()) console.log(`envolve: ${stdout.trim()}`);
}
