// The drift data at the paper's scale (bench/scale-seed.ts: 127 lineages × 15 generations, 100,000
// trajectories). Cold: each read follows a write to a drift input from another connection (as a
// worker's would), so it loads and computes everything: the baseline, what every read cost before
// the memo. Warm: reads with the inputs unchanged, served by the memo (lib/drift/view-cache.ts).
// Measured interleaved in one run, three ways: in this process (lib, JSON included); GET /api/drift
// against `next start`; and in Chromium, navigation → the first drift chart drawn.
//   npx tsx bench/drift-data.ts --file /tmp/scale.db [--runs 20] [--loads 5] [--port 3147] [--in-process-only]
// The served parts need a build in ENVOLVE_NEXT_DIST_DIR (default .next-bench):
//   ENVOLVE_NEXT_DIST_DIR=.next-bench npx next build --webpack
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { chromium } from '@playwright/test';
import { DEFAULT_ALERT_THRESHOLDS, driftFilterFromSearchParams, driftPageCache, loadDriftViewJson } from '../lib/drift/index.ts';
import { createDb } from '../lib/db/index.ts';
import { CHROMIUM_ARGS } from './browser.ts';
import { signInCookie, startNextServer, stopServer } from './dashboard-load.ts';
import { isMain } from './main.ts';
import { earlierSeed, SCALE_USERS, seedScaleDatabase, type ScaleSeed } from './scale-seed.ts';
import { formatPercentiles, percentiles, timed, type Percentiles } from './stats.ts';

export interface ColdWarm {
  cold: Percentiles; // every read recomputes: the baseline
  warm: Percentiles;
  p95Ratio: number; // cold p95 / warm p95
}

export interface DriftDataResult {
  lineages: number;
  generations: number;
  responseBytes: number;
  inProcess: ColdWarm;
  http?: ColdWarm & { connections: 1; trivial: Percentiles }; // trivial: GET /api/health, interleaved
  firstChart?: { cold: Percentiles; warm: Percentiles; fcpWarm: Percentiles }; // navigation → 'drift-chart-ready' (first contentful paint)
}

const coldWarm = (cold: number[], warm: number[]): ColdWarm => {
  const c = percentiles(cold);
  const w = percentiles(warm);
  return { cold: c, warm: w, p95Ratio: Math.round((c.p95 / w.p95) * 10) / 10 };
};

/** A write to a drift input that changes no figure: the next read must recompute. */
function inputWriter(file: string): { write: () => void; close: () => void } {
  const sqlite = new Database(file);
  const lineage = sqlite.prepare('SELECT "id" FROM "Lineage" ORDER BY "id" LIMIT 1').get() as { id: string };
  const touch = sqlite.prepare('UPDATE "Lineage" SET "updatedAt" = ? WHERE "id" = ?');
  return { write: () => touch.run(new Date().toISOString(), lineage.id), close: () => sqlite.close() };
}

async function measureInProcess(seed: ScaleSeed, runs: number, write: () => void): Promise<{ result: ColdWarm; bytes: number }> {
  const db = createDb(`file:${seed.file}`);
  try {
    const filter = driftFilterFromSearchParams({});
    const read = () => loadDriftViewJson(db, filter, DEFAULT_ALERT_THRESHOLDS);
    const bytes = (await read()).json.length; // warm-up: connection, prepared statements, JIT
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      write();
      const before = driftPageCache.recomputes;
      cold.push(await timed(read));
      warm.push(await timed(read));
      // The figures are of what they claim: one computation per cold read, none for a warm one.
      if (driftPageCache.recomputes !== before + 1) throw new Error(`${driftPageCache.recomputes - before} computations for one cold and one warm read`);
    }
    return { result: coldWarm(cold, warm), bytes };
  } finally {
    await db.$disconnect();
  }
}

async function measureServed(
  seed: ScaleSeed,
  opts: { runs: number; loads: number; port: number; distDir: string; cwd?: string; write: () => void; progress: (m: string) => void },
): Promise<Pick<DriftDataResult, 'http' | 'firstChart'>> {
  const { server, base } = await startNextServer({ file: seed.file, port: opts.port, distDir: opts.distDir, cwd: opts.cwd });
  try {
    const cookie = await signInCookie(base, SCALE_USERS.admin);
    // fetch asks for gzip, as a browser does.
    const get = (path: string) => async () => {
      const response = await fetch(`${base}${path}`, { headers: { cookie } });
      if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
      await response.arrayBuffer();
    };
    await get('/api/drift')(); // warm-up
    const cold: number[] = [];
    const warm: number[] = [];
    const trivial: number[] = [];
    for (let i = 0; i < opts.runs; i += 1) {
      opts.write();
      cold.push(await timed(get('/api/drift')));
      warm.push(await timed(get('/api/drift')));
      trivial.push(await timed(get('/api/health')));
    }
    const http = { ...coldWarm(cold, warm), connections: 1 as const, trivial: percentiles(trivial) };
    opts.progress(
      `drift: GET /api/drift cold ${formatPercentiles(http.cold)}; warm ${formatPercentiles(http.warm)}; trivial GET /api/health ${formatPercentiles(http.trivial)}`,
    );

    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    try {
      const context = await browser.newContext({ baseURL: base, viewport: { width: 1400, height: 900 } });
      await context.addCookies(
        cookie.split('; ').map((pair) => {
          const [name, ...value] = pair.split('=');
          return { name: name!, value: value.join('='), url: base };
        }),
      );
      const page = await context.newPage();
      const firstChart = async () => {
        await page.goto('/drift');
        await page.waitForFunction(() => performance.getEntriesByName('drift-chart-ready').length > 0, undefined, { timeout: 60_000 });
        return page.evaluate(() => [
          performance.getEntriesByName('drift-chart-ready')[0]?.startTime ?? Number.NaN,
          performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        ]);
      };
      await firstChart(); // warm-up: compile caches, fonts
      const chart = { cold: [] as number[], warm: [] as number[], fcpWarm: [] as number[] };
      for (let i = 0; i < opts.loads; i += 1) {
        opts.write();
        chart.cold.push((await firstChart())[0]!);
        const [ready, fcp] = await firstChart();
        chart.warm.push(ready!);
        chart.fcpWarm.push(fcp!);
      }
      const result = { cold: percentiles(chart.cold), warm: percentiles(chart.warm), fcpWarm: percentiles(chart.fcpWarm) };
      opts.progress(`drift: first chart drawn cold ${formatPercentiles(result.cold)}; warm ${formatPercentiles(result.warm)}`);
      return { http, firstChart: result };
    } finally {
      await browser.close();
    }
  } finally {
    await stopServer(server, base);
  }
}

export async function measureDriftData(
  seed: ScaleSeed,
  opts: { runs: number; loads: number; served: boolean; port: number; distDir: string; cwd?: string; progress?: (m: string) => void },
): Promise<DriftDataResult> {
  const progress = opts.progress ?? (() => {});
  const writer = inputWriter(seed.file);
  try {
    const { result: inProcess, bytes } = await measureInProcess(seed, opts.runs, writer.write);
    progress(`drift: in process cold ${formatPercentiles(inProcess.cold)}; warm ${formatPercentiles(inProcess.warm)}; ${bytes} bytes of JSON`);
    const served = opts.served ? await measureServed(seed, { ...opts, write: writer.write, progress }) : {};
    return { lineages: seed.lineages, generations: seed.generations, responseBytes: bytes, inProcess, ...served };
  } finally {
    writer.close();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      file: { type: 'string' },
      runs: { type: 'string', default: '20' },
      loads: { type: 'string', default: '5' },
      port: { type: 'string', default: '3147' },
      'in-process-only': { type: 'boolean', default: false },
    },
  });
  if (!values.file) throw new Error('--file PATH: the scale database (seeded first unless bench/scale-seed.ts already wrote it)');
  const seed = earlierSeed(values.file) ?? (await seedScaleDatabase(values.file));
  const result = await measureDriftData(seed, {
    runs: Number(values.runs),
    loads: Number(values.loads),
    served: !values['in-process-only'],
    port: Number(values.port),
    distDir: process.env.ENVOLVE_NEXT_DIST_DIR ?? '.next-bench',
    progress: (m) => process.stderr.write(`${m}\n`),
  });
  console.log(JSON.stringify(result, null, 2));
}
