// `envolve dataset export`: lineages' released frontiers and chosen versions as a Harbor dataset
// directory with its registry.json (`envolve env import` reads either back). A version the
// servability rule refuses is refused with its reason, and the command exits 2.
import type { Command } from 'commander';
import { resolveVersionId } from '../../lib/env/index.ts';
import { exportDataset, lineageFrontierVersions } from '../../lib/scheduler/index.ts';
import { withDb } from '../context.ts';
import { emit, fail, shortId, type OutputOptions } from '../output.ts';

interface ExportOptions extends OutputOptions {
  out: string;
  name: string;
  version: string;
  description?: string;
  lineages?: string;
  versions?: string;
  evaluation?: boolean;
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function registerDatasetCommands(program: Command): void {
  const dataset = program.command('dataset').description('Harbor datasets: directories of tasks with a registry.json');
  dataset
    .command('export')
    .description("write lineages' released frontiers and chosen versions as a Harbor dataset directory with registry.json")
    .requiredOption('--out <dir>', 'the dataset directory to create (must not exist or be empty)')
    .requiredOption('--name <name>', "the dataset's name in registry.json")
    .option('--version <v>', "the dataset's version", '1.0')
    .option('--description <text>', "the dataset's description")
    .option('--lineages <ids>', "comma-separated lineage ids: each lineage's released frontier")
    .option('--versions <ids>', 'comma-separated version ids or unique prefixes')
    .option('--evaluation', 'an evaluation export: held-out versions may leave (never in a training export); flagged, rejected and superseded ones never do')
    .option('--json', 'print one JSON document')
    .action(async (opts: ExportOptions) => {
      try {
        const result = await withDb(async (db) => {
          const chosen = await Promise.all(list(opts.versions).map((v) => resolveVersionId(db, v)));
          const versionIds = [...(await lineageFrontierVersions(db, list(opts.lineages))), ...chosen];
          return exportDataset(db, opts.out, {
            name: opts.name,
            version: opts.version,
            description: opts.description,
            versionIds,
            purpose: opts.evaluation ? 'evaluation' : 'training',
          });
        });
        emit(opts, result, (r) =>
          [
            ...r.tasks.map((t) => `${t.name}  ${shortId(t.versionId)}`),
            `wrote ${r.tasks.length} task(s) and ${r.registryPath}: Harbor runs ${r.dir} as a local dataset, or the registry file's entry`,
          ].join('\n'),
        );
      } catch (err) {
        fail(opts, err);
      }
    });
}
