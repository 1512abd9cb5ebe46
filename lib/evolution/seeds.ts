// Every random choice of a generation derives from the lineage's seed and its position, so the
// same lineage configuration evolves the same environments, run after run.
import { createHash } from 'node:crypto';

export function deriveSeed(lineageSeed: number, ...parts: (string | number)[]): number {
  const digest = createHash('sha256')
    .update([lineageSeed, ...parts].join('/'))
    .digest();
  return digest.readUInt32BE(0);
}
