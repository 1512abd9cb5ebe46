// `envolve trajectory export ID [--out FILE]` and `envolve trajectory import FILE`: stored
// rollouts as ATIF-v1.4 JSON documents.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { exportAtif, importAtif } from '../../lib/rollout/index.ts';
import { withDb } from '../context.ts';
import { emit, fail, progress, type OutputOptions } from '../output.ts';

export function registerTrajectoryCommands(program: Command): void {
  const trajectory = program.command('trajectory').description('trajectories (stored rollouts) as ATIF JSON');
  trajectory
    .command('export')
    .argument('<id>', 'a rollout id')
    .option('--out <file>', 'write the document here instead of stdout')
    .option('--json', 'with --out: print a JSON summary')
    .description('write a stored rollout as an ATIF-v1.4 document')
    .action(async (id: string, opts: OutputOptions & { out?: string }) => {
      try {
        const doc = await withDb((db) => exportAtif(db, id));
        const text = `${JSON.stringify(doc, null, 2)}\n`;
        if (!opts.out) {
          process.stdout.write(text);
          return;
        }
        writeFileSync(opts.out, text);
        emit(opts, { id, out: opts.out, steps: doc.steps.length, bytes: Buffer.byteLength(text) }, (r) => `wrote ${r.out}: ${r.steps} steps, ${r.bytes} bytes`);
      } catch (err) {
        fail(opts, err);
      }
    });
  trajectory
    .command('import')
    .argument('<file>', 'an ATIF JSON document with Envolve fields (extra.envolve)')
    .option('--json', 'print one JSON document')
    .description('store an ATIF trajectory as a rollout (its environment version must be in the database)')
    .action(async (file: string, opts: OutputOptions) => {
      try {
        let json: unknown;
        try {
          json = JSON.parse(readFileSync(file, 'utf8'));
        } catch (err) {
          throw new Error(`cannot read ${file} as JSON: ${(err as Error).message}`, { cause: err });
        }
        const result = await withDb((db) => importAtif(db, json));
        for (const warning of result.warnings) progress(`warning: ${warning}`);
        emit(opts, result, (r) => `imported rollout ${r.id}`);
      } catch (err) {
        fail(opts, err);
      }
    });
}
