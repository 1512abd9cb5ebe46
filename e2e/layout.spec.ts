// Every dashboard page (e2e/fixtures/pages.ts), at 1024 and 1440 px wide, in the light and then
// the dark colour scheme: the page itself never scrolls sideways. A wide table or diff may scroll
// inside its own overflow-x-auto box; the document may not. Runs as its own Playwright project
// after every other spec (playwright.config.ts), over the lineages, reviews, missed issues and
// calibration sets they leave in the e2e database; a subject the list needs and the database
// lacks fails the page's test.
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { signIn, type E2eUser } from './fixtures/auth.ts';
import { COLOR_SCHEMES, DASHBOARD_PAGES, e2eSubjects, pathIn, VIEWPORTS, type Subjects } from './fixtures/pages.ts';
import { PAGE_WAIT_LIMIT_MS, pageWaitsLimitMs, SIGN_IN_PAGE_WAITS } from './budgets.ts';

type SessionState = Awaited<ReturnType<BrowserContext['storageState']>>;
type ColorScheme = (typeof COLOR_SCHEMES)[number];

// Read once the other specs are done (this project runs after them), not when tests are listed.
let subjects: Subjects | undefined;
// One sign-in per role, through the real form, reused by every page that role opens.
const sessions = new Map<E2eUser, SessionState>();

async function sessionOf(browser: Browser, baseURL: string, who: E2eUser): Promise<SessionState> {
  const known = sessions.get(who);
  if (known) return known;
  const context = await browser.newContext({ baseURL });
  await signIn(await context.newPage(), who);
  const state = await context.storageState();
  await context.close();
  sessions.set(who, state);
  return state;
}

// What sticks out past the viewport's right edge: the outermost such elements, for the failure message.
function overflowingElements(): { scrollWidth: number; clientWidth: number; culprits: string[] } {
  const root = document.documentElement;
  const limit = root.clientWidth;
  const culprits: string[] = [];
  const visit = (element: Element) => {
    for (const child of Array.from(element.children)) {
      const box = child.getBoundingClientRect();
      if (box.right > limit + 0.5 && box.width > 0) {
        const id = child.id ? `#${child.id}` : '';
        const testId = child.getAttribute('data-testid');
        const classes = typeof child.className === 'string' ? child.className.split(/\s+/).slice(0, 6).join('.') : '';
        culprits.push(
          `${child.tagName.toLowerCase()}${id}${testId ? `[data-testid=${testId}]` : ''}${classes ? `.${classes}` : ''} (right edge ${Math.round(box.right)} px)`,
        );
        if (culprits.length >= 12) return;
      }
      visit(child);
    }
  };
  visit(document.body);
  return { scrollWidth: root.scrollWidth, clientWidth: limit, culprits };
}

async function expectNoSidewaysScroll(page: Page, path: string, colorScheme: ColorScheme): Promise<void> {
  expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), 'the colour scheme the page sees').toBe(colorScheme === 'dark');
  const overflow = await page.evaluate(overflowingElements);
  expect(
    overflow.scrollWidth,
    `${path} (${colorScheme}) is ${overflow.scrollWidth} px wide in a ${overflow.clientWidth} px viewport; sticking out:\n${overflow.culprits.join('\n')}`,
  ).toBeLessThanOrEqual(overflow.clientWidth);
}

// The narrow viewport first: it is where a page breaks.
for (const viewport of [...VIEWPORTS].sort((a, b) => a.width - b.width)) {
  test.describe(`at ${viewport.name} px`, () => {
    for (const dashboardPage of DASHBOARD_PAGES) {
      test(`${dashboardPage.name} does not scroll sideways, light or dark`, async ({ browser, baseURL }) => {
        // Signing in (once per role), the page and its main, its requests settling, what it opens (a
        // click and its wait), then a redraw and a check in each colour scheme.
        test.setTimeout(pageWaitsLimitMs(SIGN_IN_PAGE_WAITS + 3 + 2 + 2 * COLOR_SCHEMES.length));
        subjects ??= e2eSubjects();
        const path = pathIn(dashboardPage, subjects);
        expect(path, `the e2e database has no ${dashboardPage.subject} for ${dashboardPage.name}: did the other specs run?`).not.toBeNull();
        const storageState = dashboardPage.as ? await sessionOf(browser, baseURL!, dashboardPage.as) : undefined;
        const context = await browser.newContext({ baseURL, viewport: { width: viewport.width, height: viewport.height }, colorScheme: 'light', storageState });
        try {
          const page = await context.newPage();
          await page.goto(path!);
          await expect(page.locator('main#main')).toBeVisible();
          // Charts and trees are drawn after the page's own requests: let them settle. Pages that
          // poll (a live tree) never go quiet, so the wait is capped, at one page wait (what the page's
          // requests are each allowed), and then the check runs anyway.
          await page.waitForLoadState('networkidle', { timeout: PAGE_WAIT_LIMIT_MS }).catch(() => undefined);
          await dashboardPage.prepare?.(page);
          for (const colorScheme of COLOR_SCHEMES) {
            // As when the system's setting changes under an open page: the canvas charts redraw in the scheme's ink.
            await page.emulateMedia({ colorScheme });
            await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
            await expectNoSidewaysScroll(page, path!, colorScheme);
          }
        } finally {
          await context.close();
        }
      });
    }
  });
}
