// `envolve doctor`: checks the configured Anthropic key with one small call and reports the
// model, the latency and the prompt-cache tokens; says plainly when no key is set.
import type { Command } from 'commander';
import { checkAnthropic, type DoctorReport } from '../../lib/synth/index.ts';
import { emit, fail, type OutputOptions } from '../output.ts';

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('check the Anthropic key with one small call (model, latency, cache tokens)')
    .option('--json', 'print one JSON document')
    .action(async (opts: OutputOptions) => {
      try {
        const report = await checkAnthropic();
        emit(opts, report, describe);
        if (!report.ok) process.exitCode = 1;
      } catch (err) {
        fail(opts, err);
      }
    });
}

function describe(report: DoctorReport): string {
  if (!report.configured) return `anthropic: not configured — ${report.problem}`;
  if (!report.ok) return `anthropic: ${report.model} at ${report.endpoint} FAILED — ${report.problem}`;
  return [
    `anthropic: ok — ${report.model} at ${report.endpoint} answered "${report.answer}" in ${report.latencyMs} ms`,
    `tokens: ${report.inputTokens} input, ${report.outputTokens} output, ${report.cacheCreationInputTokens} written to the cache, ${report.cacheReadInputTokens} read from it`,
  ].join('\n');
}
