#!/usr/bin/env node
// The `envolve` command. The CLI is TypeScript, run through tsx's loader so that a clone
// needs no separate compile step.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = (relative) => fileURLToPath(new URL(`../${relative}`, import.meta.url));

// A fresh clone (`npm ci` and nothing else) has no Prisma client yet, and a pull that changed the
// schema leaves an old one: generate both before anything imports them. Its output goes to stderr,
// so `--json` still prints exactly one document on stdout.
function ensurePrismaClients() {
  const schema = statSync(root('prisma/schema.prisma')).mtimeMs;
  const fresh = ['lib/db/generated/client.ts', 'lib/db/generated-pg/client.ts'].every((f) => existsSync(root(f)) && statSync(root(f)).mtimeMs >= schema);
  if (fresh) return;
  process.stderr.write('envolve: generating the Prisma clients (npm run db:generate)\n');
  const run = spawnSync(process.execPath, ['--import', 'tsx', root('scripts/db-generate.ts')], { cwd: root('.'), stdio: ['ignore', 2, 2] });
  if (run.status !== 0) {
    process.stderr.write('envolve: generating the Prisma clients failed; run `npm run db:generate` in the repository to see why\n');
    process.exit(run.status ?? 1);
  }
}

ensurePrismaClients();
register();
await import(new URL('../cli/main.ts', import.meta.url).href);
