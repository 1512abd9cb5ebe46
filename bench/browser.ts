// In Chromium, over the scale database: navigation start → the lineage tree (15 generations ×
// 3 attempts) drawn (the canvas's own 'lineage-tree-ready' mark), navigation → the first drift
// chart drawn over all 127 lineages × 15 generations ('drift-chart-ready'), navigation → a 500-turn
// trajectory's heading shown, navigation → the review page of a 200-file residual loaded, navigation →
// a 100-row lineage list shown, and the labelling page's Ctrl+Enter → next item shown; first
// contentful paint of each page as the baseline. Selectors as in the e2e specs.
//   npx tsx bench/browser.ts --file /tmp/scale.db [--loads 7] [--labels 10] [--port 3147] [--committed]
// --committed builds the committed HEAD in a clean worktree first (as `npm run bench` does);
// without it the build already in ENVOLVE_NEXT_DIST_DIR (default .next-bench) is measured.
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { signInCookie, startNextServer, stopServer } from './dashboard-load.ts';
import { isMain } from './main.ts';
import { earlierSeed, SCALE_USERS, seedScaleDatabase, type ScaleSeed } from './scale-seed.ts';
import { summarize, type Summary } from './stats.ts';
import { buildCommittedWeb } from './web-build.ts';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SCREENSHOTS = 'bench/results/screenshots';

export interface BrowserResult {
  treeReadyMs: Summary;
  treeFcpMs: Summary;
  driftFirstChartMs: Summary;
  driftFcpMs: Summary;
  trajectoryShownMs: Summary;
  trajectoryFcpMs: Summary;
  reviewDomContentLoadedMs: Summary;
  reviewFcpMs: Summary;
  lineageListShownMs: Summary;
  lineageListFcpMs: Summary;
  labelSubmitToNextMs: Summary;
  labelSavesUnanswered: number; // label POSTs with no response within 15 s (the next item was shown regardless)
  labelSubmitsDropped: number; // Ctrl+Enter with an answer selected that showed no next item within 5 s
}

const fcp = (page: Page) => page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN);

async function signedInPage(base: string, user: { email: string; password: string }, browser: Awaited<ReturnType<typeof chromium.launch>>): Promise<Page> {
  const cookie = await signInCookie(base, user);
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1400, height: 900 } });
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const [name, ...value] = pair.split('=');
      return { name: name!, value: value.join('='), url: base };
    }),
  );
  return context.newPage();
}

export async function measureBrowser(
  seed: ScaleSeed,
  opts: { loads: number; labels: number; port: number; distDir: string; cwd?: string; progress?: (m: string) => void },
): Promise<BrowserResult> {
  const progress = opts.progress ?? (() => {});
  mkdirSync(SCREENSHOTS, { recursive: true });
  const { server, base } = await startNextServer({ file: seed.file, port: opts.port, distDir: opts.distDir, cwd: opts.cwd });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await signedInPage(base, SCALE_USERS.admin, browser);
    const tree = { ready: [] as number[], fcp: [] as number[] };
    await page.goto(`/lineages/${seed.treeLineageId}`); // warm-up: compile caches, fonts
    for (let i = 0; i < opts.loads; i += 1) {
      await page.goto(`/lineages/${seed.treeLineageId}`);
      await page.getByTestId('lineage-tree').and(page.locator('[data-ready="true"]')).waitFor();
      tree.ready.push(await page.evaluate(() => performance.getEntriesByName('lineage-tree-ready')[0]?.startTime ?? Number.NaN));
      tree.fcp.push(await fcp(page));
    }
    // The attempt a generation kept is drawn as the generation's own node; the others branch off.
    const attempts = await page.locator('[data-node-kind="attempt"]').count();
    const expected = seed.generations * (seed.attempts - 1);
    if (attempts !== expected) throw new Error(`the tree shows ${attempts} attempt nodes, expected ${expected}`);
    await page.screenshot({ path: `${SCREENSHOTS}/lineage-tree.png` });
    progress(`browser: lineage tree ready ${summarize(tree.ready).median} ms`);

    const drift = { ready: [] as number[], fcp: [] as number[] };
    await page.goto('/drift');
    for (let i = 0; i < opts.loads; i += 1) {
      await page.goto('/drift');
      await page.waitForFunction(() => performance.getEntriesByName('drift-chart-ready').length > 0, undefined, { timeout: 60_000 });
      drift.ready.push(await page.evaluate(() => performance.getEntriesByName('drift-chart-ready')[0]?.startTime ?? Number.NaN));
      drift.fcp.push(await fcp(page));
    }
    progress(`browser: drift page first chart ${summarize(drift.ready).median} ms`);

    const trajectory = { shown: [] as number[], fcp: [] as number[] };
    await page.goto(`/trajectories/${seed.longTrajectoryId}`);
    for (let i = 0; i < opts.loads; i += 1) {
      await page.goto(`/trajectories/${seed.longTrajectoryId}`);
      await page.getByRole('heading', { name: `${seed.longTurns} turns` }).waitFor();
      trajectory.shown.push(await page.evaluate(() => performance.now()));
      trajectory.fcp.push(await fcp(page));
    }
    await page.screenshot({ path: `${SCREENSHOTS}/trajectory-500.png` });
    progress(`browser: 500-turn trajectory shown ${summarize(trajectory.shown).median} ms`);

    const review = { domContentLoaded: [] as number[], fcp: [] as number[] };
    await page.goto(`/generations/${seed.reviewGenerationId}`);
    for (let i = 0; i < opts.loads; i += 1) {
      await page.goto(`/generations/${seed.reviewGenerationId}`);
      await page.getByTestId('residual-file').nth(199).waitFor({ state: 'attached' });
      review.domContentLoaded.push(
        await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domContentLoadedEventEnd),
      );
      review.fcp.push(await fcp(page));
    }
    progress(`browser: review page of a 200-file residual, first contentful paint ${summarize(review.fcp).median} ms`);

    const lineageList = { shown: [] as number[], fcp: [] as number[] };
    await page.goto('/lineages?pageSize=100');
    for (let i = 0; i < opts.loads; i += 1) {
      await page.goto('/lineages?pageSize=100');
      await page.getByTestId('lineage-row').nth(99).waitFor({ state: 'attached' });
      lineageList.shown.push(await page.evaluate(() => performance.now()));
      lineageList.fcp.push(await fcp(page));
    }
    progress(`browser: lineage list, 100 rows shown ${summarize(lineageList.shown).median} ms`);

    const annotator = await signedInPage(base, SCALE_USERS.annotator, browser);
    await annotator.goto(`/calibration/${seed.calibrationSetId}/label`);
    await annotator.getByTestId('item-heading').waitFor();
    // Timed inside the page, as in e2e/calibration.spec.ts: Ctrl+Enter keydown → the next item's heading.
    // (A string: tsx would wrap named functions in a helper the page does not have.)
    await annotator.evaluate(`(() => {
      window.__t0 = 0;
      window.__lat = [];
      document.addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) window.__t0 = performance.now(); }, true);
      const shown = () => document.querySelector('[data-testid=item-heading]')?.textContent ?? (document.querySelector('[data-testid=all-done]') ? 'done' : '');
      let last = shown();
      new MutationObserver(() => {
        const now = shown();
        if (now !== last && now !== '' && window.__t0 > 0) {
          window.__lat.push(performance.now() - window.__t0);
          window.__t0 = 0;
        }
        if (now !== '') last = now;
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    })()`);
    let unsaved = 0;
    let dropped = 0;
    for (let i = 0; i < opts.labels; i += 1) {
      const answer = (['pass', 'fail', 'unsure'] as const)[i % 3];
      for (let tries = 1; ; tries += 1) {
        await annotator.keyboard.press(['1', '2', '3'][i % 3]!);
        // Submitting before the answer registered would be refused (and never show a next item).
        await annotator.locator(`input[name=answer][value=${answer}]:checked`).waitFor();
        const saved = annotator
          .waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/label'), { timeout: 15_000 })
          .then(
            () => true,
            () => false,
          );
        await annotator.keyboard.press('Control+Enter');
        // The page can drop a submit (e.g. an answer cleared when the item's data arrived after
        // the key): counted, and the label given again, as an annotator would.
        const advanced = await annotator
          .waitForFunction((n) => (window as unknown as { __lat: number[] }).__lat.length > n, i, { timeout: 5_000 })
          .then(
            () => true,
            () => false,
          );
        if (advanced) {
          // The page ignores a Ctrl+Enter while the previous save is in flight: wait for it.
          if (!(await saved)) unsaved += 1;
          break;
        }
        dropped += 1;
        if (tries === 3) {
          await annotator.screenshot({ path: `${SCREENSHOTS}/labelling-stuck.png` });
          throw new Error(
            `label ${i + 1}: no next item after three Ctrl+Enter (${(await annotator.getByTestId('item-heading').textContent()) ?? 'no heading'})`,
          );
        }
      }
    }
    const latencies = await annotator.evaluate(() => (window as unknown as { __lat: number[] }).__lat);
    await annotator.screenshot({ path: `${SCREENSHOTS}/labelling.png` });
    progress(`browser: label submit → next ${summarize(latencies).median} ms`);
    return {
      treeReadyMs: summarize(tree.ready),
      treeFcpMs: summarize(tree.fcp),
      driftFirstChartMs: summarize(drift.ready),
      driftFcpMs: summarize(drift.fcp),
      trajectoryShownMs: summarize(trajectory.shown),
      trajectoryFcpMs: summarize(trajectory.fcp),
      reviewDomContentLoadedMs: summarize(review.domContentLoaded),
      reviewFcpMs: summarize(review.fcp),
      lineageListShownMs: summarize(lineageList.shown),
      lineageListFcpMs: summarize(lineageList.fcp),
      labelSubmitToNextMs: summarize(latencies),
      labelSavesUnanswered: unsaved,
      labelSubmitsDropped: dropped,
    };
  } finally {
    await browser.close();
    await stopServer(server, base);
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      file: { type: 'string' },
      loads: { type: 'string', default: '7' },
      labels: { type: 'string', default: '10' },
      port: { type: 'string', default: '3147' },
      committed: { type: 'boolean', default: false },
    },
  });
  if (!values.file) throw new Error('--file PATH: the scale database (seeded first unless bench/scale-seed.ts already wrote it)');
  const seed = earlierSeed(values.file) ?? (await seedScaleDatabase(values.file));
  const progress = (m: string) => process.stderr.write(`${m}\n`);
  const web = values.committed ? buildCommittedWeb(progress) : undefined;
  try {
    const result = await measureBrowser(seed, {
      loads: Number(values.loads),
      labels: Number(values.labels),
      port: Number(values.port),
      distDir: web?.distDir ?? process.env.ENVOLVE_NEXT_DIST_DIR ?? '.next-bench',
      cwd: web?.dir,
      progress,
    });
    console.log(JSON.stringify({ build: web ? `commit ${web.commit.slice(0, 12)}` : 'existing build', ...result }, null, 2));
  } finally {
    web?.remove();
  }
}
