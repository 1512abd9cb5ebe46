// Prints a stage log (cli/stage-log.ts) as a table on stderr, with the wall time since the run began.
// usage: npx tsx scripts/print-stages.ts LOG [STARTED_MS]   (scripts/test.sh runs it when it ends)
import { formatStages, readStages } from '../cli/stage-log.ts';

const [log, startedMs] = process.argv.slice(2);
if (!log) throw new Error('usage: npx tsx scripts/print-stages.ts LOG [STARTED_MS]');
const total = startedMs ? Date.now() - Number(startedMs) : undefined;
process.stderr.write(`\nTest stages (${log}):\n${formatStages(readStages(log), total)}\n`);
