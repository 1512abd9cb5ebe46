// The stage log of `npm run up` (.envolve/stages.tsv, or ENVOLVE_STAGE_LOG): one tab-separated line per
// stage, written as the stage ends (its name, ran / cached / failed, its wall time in ms), by
// scripts/common.sh for the shell stages and by `envolve db migrate` and `envolve setup` for theirs.
// scripts/run-services.mjs prints it as a table once the dashboard's sign-in page answers, so a slow
// start says which stage was slow and whether it was the cache or the work.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { table } from './output.ts';

export const STAGE_STATUSES = ['ran', 'cached', 'failed'] as const;
export type StageStatus = (typeof STAGE_STATUSES)[number];

export interface StageRow {
  stage: string;
  status: StageStatus;
  ms: number;
}

// The log this process writes to, or null when it was not started by `npm run up`.
export function stageLogPath(env: Record<string, string | undefined> = process.env): string | null {
  return env.ENVOLVE_STAGE_LOG || null;
}

export function appendStage(path: string, row: StageRow): void {
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, `${row.stage.replace(/[\t\n]/g, ' ')}\t${row.status}\t${Math.round(row.ms)}\n`);
}

// Lines that are not stage rows (a log cut by a crash mid-write) are skipped, not guessed at.
export function parseStages(text: string): StageRow[] {
  return text.split('\n').flatMap((line) => {
    const [stage, status, ms] = line.split('\t');
    if (!stage || !STAGE_STATUSES.includes(status as StageStatus) || !/^\d+$/.test(ms ?? '')) return [];
    return [{ stage, status: status as StageStatus, ms: Number(ms) }];
  });
}

export function readStages(path: string): StageRow[] {
  return existsSync(path) ? parseStages(readFileSync(path, 'utf8')) : [];
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

// The stages in the order they ended; `totalMs` is the wall time since `npm run up` started.
export function formatStages(rows: StageRow[], totalMs?: number): string {
  const body = rows.map((r) => [r.stage, r.status, seconds(r.ms)]);
  const total = totalMs === undefined ? [] : [['total', '', seconds(totalMs)]];
  return table([['STAGE', 'STATUS', 'WALL TIME'], ...body, ...total]);
}

// Runs one stage and records it in the log (when there is one): cached when `wasCached` says the
// stage found its result already there, failed (and rethrown) when it threw.
export async function timeStage<T>(log: string | null, stage: string, run: () => Promise<T>, wasCached: (value: T) => boolean = () => false): Promise<T> {
  const started = Date.now();
  try {
    const value = await run();
    if (log) appendStage(log, { stage, status: wasCached(value) ? 'cached' : 'ran', ms: Date.now() - started });
    return value;
  } catch (error) {
    if (log) appendStage(log, { stage, status: 'failed', ms: Date.now() - started });
    throw error;
  }
}
