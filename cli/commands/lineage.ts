// `envolve lineage show` and `envolve lineage sandbox-runtime`: a lineage's report, and the
// runtime its sandbox uses (audited; the CLI acts as its operating-system user).
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { lineageReport, lineageSandboxRuntime, lineageSandboxRuntimePatchSchema, setLineageSandboxRuntime } from '../../lib/evolution/index.ts';
import { describeSandboxRuntime, isSandboxRuntime, SANDBOX_RUNTIMES } from '../../lib/sandbox/runtime.ts';
import { withDb } from '../context.ts';
import { emit, fail, type OutputOptions } from '../output.ts';
import { lineageSummary } from './evolve.ts';

const DEFAULT_WORD = 'default';
const operator = () => ({ id: null, email: `cli:${userInfo().username}` });

export function registerLineageCommands(lineage: Command): void {
  lineage
    .command('show')
    .argument('<lineage>', 'lineage id')
    .description('print the lineage: its settings, sandbox runtime and generations')
    .option('--json', 'print one JSON document')
    .action(async (lineageId: string, opts: OutputOptions) => {
      try {
        emit(opts, await withDb((db) => lineageReport(db, lineageId)), lineageSummary);
      } catch (err) {
        fail(opts, err);
      }
    });
  lineage
    .command('sandbox-runtime')
    .argument('<lineage>', 'lineage id')
    .argument('<runtime>', `${SANDBOX_RUNTIMES.join(' | ')} | ${DEFAULT_WORD} (the deployment's ENVOLVE_SANDBOX_RUNTIME)`)
    .description("set the runtime of the lineage's later builds' trials and checks; an environment's task.toml may still require runsc")
    .option('--json', 'print one JSON document')
    .action(async (lineageId: string, runtime: string, opts: OutputOptions) => {
      try {
        if (runtime !== DEFAULT_WORD && !isSandboxRuntime(runtime))
          throw new Error(`the runtime must be ${SANDBOX_RUNTIMES.join(', ')} or ${DEFAULT_WORD}, not '${runtime}'`);
        const patch = lineageSandboxRuntimePatchSchema.parse({ sandboxRuntime: runtime === DEFAULT_WORD ? null : runtime });
        const updated = await withDb((db) => setLineageSandboxRuntime(db, operator(), lineageId, patch));
        const resolved = lineageSandboxRuntime(updated.settings);
        emit(opts, { lineageId, sandboxRuntime: resolved }, () => `lineage ${lineageId}: sandbox runtime ${describeSandboxRuntime(resolved)}`);
      } catch (err) {
        fail(opts, err);
      }
    });
}
