// Calibration end to end: two annotators label a 6-item set (overlap 2) blind and with the
// keyboard only; a lead adjudicates their one disagreement; the metrics page shows the numbers
// worked out by hand below, and every Ctrl+Enter submit shows the next item (its latency is bench/browser.ts's).
import { expect, test, type Page, type Response } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { USERS, signIn } from './fixtures/auth.ts';
import { ANNOTATOR2, calibrationFixture } from './fixtures/calibration-seed.ts';
import { SCREENSHOT_DIR } from './paths.ts';
import { forbiddenKeysIn } from '../lib/calibration/blind.ts';
import { PAGE_WAIT_LIMIT_MS, pageWaitsLimitMs } from './budgets.ts';

// The set's items, each labelled in PAGE_WAITS_PER_LABEL awaited steps: waiting for it to show (a poll and
// a read), reading its case, its answer key and the check, a note's two key steps, the submit and its poll.
const ITEMS = 6;
const PAGE_WAITS_PER_LABEL = 10;
// The first test's other awaited page steps (signing in, navigation, checks, the five-page 403 sweep):
// the most of the three tests.
const MOST_OTHER_PAGE_WAITS = 50;
// Serial: each test builds on the labels of the one before. Each labels at most every item, besides its other steps.
test.describe.configure({ mode: 'serial', timeout: pageWaitsLimitMs(ITEMS * PAGE_WAITS_PER_LABEL + MOST_OTHER_PAGE_WAITS) });

type Answer = 'pass' | 'fail' | 'unsure';
const KEY: Record<Answer, string> = { pass: '1', fail: '2', unsure: '3' };
// The verifier passed c1–c3 and failed c4–c6 (see the seed). Humans: c3's file is wrong (a
// false positive), c6 is borderline ("unsure"). The annotators disagree only on c3.
const FIRST: Record<string, Answer> = { c1: 'pass', c2: 'pass', c3: 'fail', c4: 'fail', c5: 'fail', c6: 'unsure' };
const SECOND: Record<string, Answer> = { ...FIRST, c3: 'pass' };

let advances = 0; // Ctrl+Enter submits that showed the next item (or the "all done" panel)

/** Signs in with the keyboard only: type the fields, press Enter. Lands where the home page sends the role. */
async function keyboardSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
  // The machine may be busy: sign-in can take a while. Annotators land on their home page,
  // which lists the sets they label.
  await expect(page.getByTestId('home-labelling')).toBeVisible({ timeout: PAGE_WAIT_LIMIT_MS });
}

/** Everything the server sent the annotator's browser: documents, RSC payloads and API answers. */
function recordResponses(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', async (response: Response) => {
    const type = response.headers()['content-type'] ?? '';
    if (!/json|html|x-component|text\/plain/.test(type)) return;
    bodies.push(`${response.url()}\n${await response.text().catch(() => '')}`);
  });
  return bodies;
}

/** Counts each Ctrl+Enter that the next item's heading (or the "all done" panel) follows, inside the page. */
async function watchAdvances(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __submitted: boolean; __advances: number };
    w.__submitted = false;
    w.__advances = 0;
    document.addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) w.__submitted = true;
      },
      true,
    );
    const shown = () => document.querySelector('[data-testid=item-heading]')?.textContent ?? (document.querySelector('[data-testid=all-done]') ? 'done' : '');
    let last = shown();
    new MutationObserver(() => {
      const now = shown();
      if (now !== last && now !== '' && w.__submitted) {
        w.__advances += 1;
        w.__submitted = false;
      }
      if (now !== '') last = now;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

async function collectAdvances(page: Page): Promise<void> {
  advances += await page.evaluate(() => (window as unknown as { __advances: number }).__advances);
}

async function caseOnScreen(page: Page): Promise<string> {
  const turns = (await page.getByTestId('turn').allTextContents()).join('\n');
  const match = /# case (c\d)/.exec(turns);
  if (!match) throw new Error(`no case marker in the trajectory:\n${turns}`);
  return match[1]!;
}

/** What the labelling page shows now: the item heading, 'done', or '' while an item loads. */
function shownNow(page: Page): Promise<string> {
  return page.evaluate(
    () => document.querySelector('[data-testid=item-heading]')?.textContent ?? (document.querySelector('[data-testid=all-done]') ? 'done' : ''),
  );
}

async function waitShown(page: Page): Promise<string> {
  await expect.poll(() => shownNow(page)).not.toBe('');
  return shownNow(page);
}

/** Answers the shown item with the keyboard and submits with Ctrl+Enter; returns its case. */
async function labelShown(page: Page, answers: Record<string, Answer>, note?: string): Promise<string> {
  const heading = await waitShown(page);
  const id = await caseOnScreen(page);
  await page.keyboard.press(KEY[answers[id]!]);
  await expect(page.locator(`input[name=answer][value=${answers[id]}]`)).toBeChecked();
  if (note) {
    await page.keyboard.press('n');
    await page.keyboard.type(note);
  }
  // The previous label may still be on its way to the server (the next item shows before it
  // lands): this submit must wait for it, not be dropped, so nothing here waits for the save.
  await page.keyboard.press('Control+Enter');
  await expect
    .poll(async () => {
      const now = await shownNow(page);
      return now !== '' && now !== heading;
    })
    .toBe(true);
  return id;
}

/** Labels whatever is left for this annotator; returns the cases in the order met. */
async function labelRest(page: Page, answers: Record<string, Answer>): Promise<string[]> {
  const seen: string[] = [];
  while ((await waitShown(page)) !== 'done') seen.push(await labelShown(page, answers));
  return seen;
}

// Every response the annotator's browser got: no verdict or reward anywhere, no agent notes
// (the seed's step reasoning and messages), and each JSON answer free of every forbidden key
// of the server's blind allow-list; an item's instruction is sent once.
function expectBlind(bodies: string[]): void {
  expect(bodies.length).toBeGreaterThan(5);
  let items = 0;
  for (const body of bodies) {
    expect(body).not.toMatch(/reward/i);
    expect(body).not.toMatch(/verifierPassed|verifier_passed|stratum|"passed"/);
    expect(body).not.toMatch(/simulated mistake|writing the greeting|Checking the file/);
    const [url = '', ...rest] = body.split('\n');
    const text = rest.join('\n');
    // An empty body (a request the page cancelled, a 204) carries nothing to leak.
    if (!url.includes('/api/calibration/') || text.trim() === '') continue;
    const json = JSON.parse(text) as unknown;
    if (json !== null && typeof json === 'object' && 'error' in json) continue; // a refusal: {error, message}
    expect(forbiddenKeysIn(json), url).toEqual([]);
    if (/\/items\/[^/]+$/.test(new URL(url).pathname)) {
      items += 1;
      const instruction = (json as { trajectory: { instruction: string } }).trajectory.instruction;
      expect(JSON.stringify(json).split(JSON.stringify(instruction).slice(1, 40)).length - 1, `${url}: the instruction once`).toBe(1);
    }
  }
  expect(items).toBeGreaterThan(0);
}

test('the first annotator labels every item blind, from the keyboard, and resumes where they stopped', async ({ page }) => {
  const { setId } = calibrationFixture();
  const bodies = recordResponses(page);
  await keyboardSignIn(page, USERS.annotator.email, USERS.annotator.password);
  await expect(page.getByTestId('home-labelling')).toContainText('Greeting verifier: 6 left');
  await page.goto(`/calibration/${setId}/label`);
  await watchAdvances(page);
  await expect(page.getByTestId('item-heading')).toHaveText(/^Item 1 of 6/);
  await expect(page.getByTestId('progress-text')).toHaveText('0 of 6 labelled');
  // The files the agent produced are shown with their content.
  await expect(page.getByTestId('artifact')).toContainText('/app/greeting.txt');

  const seen = [await labelShown(page, FIRST, 'checked the file by hand'), await labelShown(page, FIRST)];
  // ← shows the previous item with its label; → comes back.
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('item-heading')).toHaveText(/^Item 2 of 6.*labelled/);
  await expect(page.locator(`input[name=answer][value=${FIRST[seen[1]!]}]`)).toBeChecked();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('item-heading')).toHaveText(/^Item 1 of 6/);
  await expect(page.locator('#label-note')).toHaveValue('checked the file by hand');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('item-heading')).toHaveText(/^Item 3 of 6$/);
  seen.push(await labelShown(page, FIRST));
  await collectAdvances(page);

  // Leaving and coming back resumes on the item leased to them (once the last label has landed).
  await page.waitForLoadState('networkidle');
  await page.reload();
  await watchAdvances(page);
  await expect(page.getByTestId('item-heading')).toHaveText(/^Item 4 of 6$/);
  await expect(page.getByTestId('progress-text')).toHaveText('3 of 6 labelled');

  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'calibration-help.png') });
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'calibration-label.png'), fullPage: true });

  seen.push(...(await labelRest(page, FIRST)));
  await expect(page.getByTestId('all-done')).toBeVisible();
  await expect(page.getByTestId('progress-text')).toHaveText('6 of 6 labelled');
  await collectAdvances(page);
  expect(seen.sort()).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6']);

  // Blind: no reward, verdict or stratum in anything the server sent, nor in the page.
  expect(await page.content()).not.toMatch(/reward/i);
  await page.waitForLoadState('networkidle');
  expectBlind(bodies);

  // The dashboard and every lead route are closed to annotators.
  for (const url of ['/environments', '/lineages', '/review', `/calibration/${setId}`, `/calibration/${setId}/adjudicate`]) {
    expect((await page.goto(url))?.status(), url).toBe(403);
  }
  for (const url of [`/api/calibration/sets/${setId}/metrics`, `/api/calibration/sets/${setId}/export?what=labels&format=csv`]) {
    expect((await page.request.get(url)).status(), url).toBe(403);
  }
  const sets = (await (await page.request.get('/api/calibration/sets')).json()) as { sets: object[] };
  expect(JSON.stringify(sets)).not.toMatch(/passShare|strata|verifierVersion|annotatorIds/);
});

test('the second annotator labels the same items, disagreeing once', async ({ page }) => {
  const { setId } = calibrationFixture();
  const bodies = recordResponses(page);
  await keyboardSignIn(page, ANNOTATOR2.email, ANNOTATOR2.password);
  await page.goto(`/calibration/${setId}/label`);
  await watchAdvances(page);
  const seen = await labelRest(page, SECOND);
  await expect(page.getByTestId('all-done')).toBeVisible();
  await collectAdvances(page);
  expect(seen.sort()).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
  await page.waitForLoadState('networkidle');
  expectBlind(bodies);
});

test('a lead adjudicates the disagreement and reads the metrics worked out by hand', async ({ page }) => {
  const { setId } = calibrationFixture();
  await signIn(page, 'lead', `/calibration/${setId}/adjudicate`);
  const contested = page.getByTestId('disagreement');
  await expect(contested).toHaveCount(1);
  await expect(contested).toContainText(`${USERS.annotator.name}: fail`);
  await expect(contested).toContainText(`${ANNOTATOR2.name}: pass`);
  await contested.getByLabel('fail').check();
  await contested.getByLabel('Note').fill('the greeting is for the wrong person');
  await contested.getByRole('button', { name: 'Record final label' }).click();
  await expect(contested.getByTestId('final-label')).toHaveText(`final: fail by ${USERS.lead.email}`);

  await page.goto(`/calibration/${setId}`);
  // Final labels against the verifier (c1–c3 passed, c4–c6 failed):
  //   c1, c2 pass → TP 2; c3 fail (adjudicated) → FP 1; c4, c5 fail → TN 2; c6 unsure → excluded.
  //   scored 5, agreement 4/5. z² = 3.841459.
  //   Wilson 4/5: centre (0.8 + 0.384146)/1.768292 = 0.669656, half 1.108393·√(0.032 + 0.038415) = 0.294120 → [37.6%, 96.4%]
  //   FPR 1/3: centre (0.333333 + 0.640243)/2.280486 = 0.426916, half 0.859451·√(0.074074 + 0.106707) = 0.365425 → [6.1%, 79.2%]
  //   precision and TNR 2/3 → [1 − 0.792340, 1 − 0.061492] = [20.8%, 93.9%]
  //   FNR 0/2 → [0, z²/(2 + z²)] = [0.0%, 65.8%]; TPR 2/2 → [2/(2 + z²), 1] = [34.2%, 100.0%]
  //   κ: verifier pass/fail 3/2, humans 2/3; p_e = (3·2 + 2·3)/25 = 0.48 → (0.8 − 0.48)/0.52 = 0.615
  //   annotators over c1–c6 (pass, fail, unsure): first = P P F F F U, second = P P P F F U
  //     N 6, agreeing 5, rows (2, 3, 1), cols (3, 2, 1): chance 6 + 6 + 1 = 13 → κ = (6·5 − 13)/(36 − 13) = 17/23 = 0.739
  // Scope estimates: the scope is the six trajectories (N_pass 3, N_fail 3, so W = ½ each); the
  // unsure c6 leaves 2 labelled in the fail stratum, so q_pass = 2/3 and q_fail = 0/2:
  //   FP = ½·⅓ = 1/6, TN = ½·1 → FPR = (1/6)/(2/3) = 25.0%; agreement = ½·⅔ + ½ = 83.3%; FNR 0.0%
  //   κ: p_e = ½·⅓ + ½·⅔ = ½ → (5/6 − ½)/½ = 0.667
  await expect(page.getByTestId('headline-fpr')).toContainText('25.0%');
  await expect(page.getByTestId('headline-sample')).toContainText('1 of 3 human-failed trajectories in the set passed (33.3% unweighted');
  await expect(page.getByTestId('set-design')).toContainText(
    "Stratified by the verifier's verdict (50% pass share): 3 of 3 verifier passes and 3 of 3 verifier fails in the scope.",
  );
  const metrics = page.getByTestId('metrics-recorded');
  const row = (key: string) => metrics.getByTestId(`metric-${key}`);
  await expect(row('agreement').getByTestId('sample')).toHaveText('80.0% [37.6%, 96.4%] 4/5');
  await expect(row('agreement').getByTestId('estimate')).toContainText('83.3% [');
  await expect(row('falsePositiveRate').getByTestId('sample')).toHaveText('33.3% [6.1%, 79.2%] 1/3');
  await expect(row('falsePositiveRate').getByTestId('estimate')).toContainText('25.0% [');
  await expect(row('falseNegativeRate').getByTestId('sample')).toHaveText('0.0% [0.0%, 65.8%] 0/2');
  await expect(row('falseNegativeRate').getByTestId('estimate')).toContainText('0.0% [0.0%, ');
  await expect(row('precision')).toContainText('66.7% [20.8%, 93.9%] 2/3');
  await expect(row('kappa').getByTestId('sample')).toHaveText('0.615');
  await expect(row('kappa').getByTestId('estimate')).toContainText('0.667 [');
  await expect(page.getByTestId('strata-recorded').getByTestId('stratum-fail')).toHaveText(['fail', '3', '2', '0', '2', '1.50'].join(''));
  const confusion = page.getByTestId('confusion-recorded');
  for (const [cell, n] of [
    ['tp', '2'],
    ['fp', '1'],
    ['fn', '0'],
    ['tn', '2'],
  ] as const)
    await expect(confusion.getByTestId(cell)).toHaveText(n);
  await expect(page.getByTestId('verdict-recorded')).toContainText('Not trustworthy');
  await expect(page.getByTestId('verdict-recorded')).toContainText('estimated false-positive rate 25.0%');
  await expect(page.getByTestId('verdict-recorded')).toContainText(/estimated agreement 83\.3% \(95% interval [\d.]+%–[\d.]+%\) is below the bar of 85\.0%/);
  await expect(page.getByTestId('inter-annotator')).toHaveText("Cohen's κ 0.739 over 6 items");
  await expect(page.getByTestId('set-progress')).toContainText(
    '6 of 6 items have a final label · 0 awaiting labels · 0 awaiting adjudication · 1 unsure (excluded)',
  );
  await expect(page.getByTestId('stale-verifier')).toHaveCount(0);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'calibration-metrics.png'), fullPage: true });

  const csv = await (await page.request.get(`/api/calibration/sets/${setId}/export?what=labels&format=csv`)).text();
  expect(csv.trimEnd().split('\r\n')).toHaveLength(1 + 12);
  const jsonl = await (await page.request.get(`/api/calibration/sets/${setId}/export?what=metrics&format=jsonl`)).text();
  const rows = jsonl
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { metric: string; value: unknown });
  expect(rows.find((r) => r.metric === 'falsePositiveRate')?.value).toBeCloseTo(1 / 4, 12);
  expect(rows.find((r) => r.metric === 'sample_falsePositiveRate')?.value).toBeCloseTo(1 / 3, 12);

  expect(advances).toBe(12);
});
