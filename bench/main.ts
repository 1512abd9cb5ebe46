// Whether a bench module was run directly (npx tsx bench/x.ts) rather than imported by bench/run.ts.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && realpathSync(script) === realpathSync(fileURLToPath(moduleUrl));
}
