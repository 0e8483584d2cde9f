// Browser-test harness: starts the sandbox (child process) and the playground (built bundle in the emulator, in this
// process; or, for a test that answers an alert, in a child process as `npm start` runs it), and drives Debian's
// Chromium through playwright-core: the run's shared one (test/setup/shared-browser.js), a context per suite. When
// Chromium is missing (and the test setup could not install it) each suite of `describeWithBrowser` fails with one
// test that says so: a browser test is never skipped quietly.
// It also holds the steps on the playground's page that tests share (open a panel, enrich the sheet, move time on).
import * as fs from 'fs';
import * as path from 'path';
import { chromium, type Browser, type Frame, type LaunchOptions, type Page } from 'playwright-core';
import { SandboxControl } from '../../dev/sandbox/control-client';
import { spawnSandbox } from '../../dev/sandbox/spawn';
import { startPlayground, type Playground } from '../../dev/playground/server';

export { spawnPlayground } from '../../dev/playground/spawn';

/** The run's shared Chromium (test/setup/shared-browser.js) and how to start one like it. */
const sharedBrowser = require('../setup/shared-browser') as {
  CHROMIUM_LAUNCH: LaunchOptions & { executablePath: string };
  ENDPOINT_VARIABLE: string;
};

export const CHROMIUM = sharedBrowser.CHROMIUM_LAUNCH.executablePath;
export const ARTIFACTS = path.resolve(__dirname, 'artifacts');

export const describeWithBrowser: jest.Describe = fs.existsSync(CHROMIUM)
  ? describe
  : (((name: string) => {
      describe(name, () => {
        it('runs in Chromium', () => {
          throw new Error(`${CHROMIUM} is missing and could not be installed: run "sudo apt-get install -y chromium".`);
        });
      });
    }) as unknown as jest.Describe);

/** The steps on the playground's page that tests share. */
interface PageSteps {
  /** The sidebar's frame once a panel is open. */
  sidebar(): Promise<Frame>;
  /** Clicks the menu item of `handler` (`showEnrichPanel`, `showSettingsPanel`, ...): the sidebar's frame it opens. */
  openPanel(handler: string): Promise<Frame>;
  /**
   * Selects rows `first`..`last` of column A, opens the Research panel, waits for it to count them and types the brief
   * (`Research {Domain}` unless given): the panel's frame.
   */
  researchPanelOn(first: number, last: number, brief?: string): Promise<Frame>;
  /**
   * Selects A1 of the sheet shown (the demo sheet "Companies" at the start), opens the Enrich panel and enriches the
   * sheet with the fields it offers until its progress reads 100 %: the panel's frame.
   */
  enrichSheet(): Promise<Frame>;
  /** The texts of the shown sheet's column A, trimmed and in lower case: the domains it shows, and blanks. */
  columnA(): Promise<string[]>;
  /**
   * Moves the playground's clock (and the sandbox's) `ms` on in one step, firing the timers then due once (missed
   * hours skipped); done when the server is. The page's time buttons move an hour at a time instead.
   */
  advanceTime(ms: number): Promise<void>;
  /**
   * Clicks the playground's "+1 h", then "+1 min": the add-on's hourly timer runs and the sandbox finishes the research
   * tasks launched before.
   */
  finishTasks(): Promise<void>;
  screenshot(name: string): Promise<string>;
  /** Types `text` into a cell of the playground's spreadsheet, as the user would (a formula when it starts with =). */
  setCell(sheet: string, a1: string, text: string): Promise<void>;
}

export interface Stack extends PageSteps {
  sandboxUrl: string;
  /** The sandbox's control and API client (seeded companies, company changes, API reads). */
  control: SandboxControl;
  playground: Playground;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/**
 * Starts the stack before a suite's tests and stops it after them; the getter gives the running stack. Call it in a
 * describe block.
 */
export function stackForSuite(options: { bundlePath?: string } = {}): () => Stack {
  let stack: Stack | undefined;
  beforeAll(async () => {
    stack = await startStack(options);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });
  return () => {
    if (!stack) throw new Error('The browser stack did not start');
    return stack;
  };
}

/**
 * Starts sandbox, playground (on `bundlePath`, default dist/Code.js) and Chromium; whatever started is stopped again
 * when a later step fails.
 */
export async function startStack(options: { bundlePath?: string } = {}): Promise<Stack> {
  const started: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of started.reverse()) await stop().catch(() => undefined);
  };
  try {
    const sandbox = await spawnSandbox({ clock: 'manual' });
    started.push(() => sandbox.stop());
    const playground = await startPlayground({ sandboxUrl: sandbox.url, bundlePath: options.bundlePath });
    started.push(() => playground.close());
    const { browser, page } = await browserOn(playground.url);
    started.push(() => browser.close());
    return stackOf(sandbox.url, playground, browser, page, stopAll);
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * Chromium with the playground at `url` open; it may reach nothing else. The browser is the run's shared one, reached
 * over its socket (closing it closes this suite's pages and contexts only), or one of its own when the run has none.
 */
export async function browserOn(url: string): Promise<{ browser: Browser; page: Page }> {
  const endpoint = process.env[sharedBrowser.ENDPOINT_VARIABLE];
  const browser = endpoint ? await chromium.connect(endpoint) : await chromium.launch(sharedBrowser.CHROMIUM_LAUNCH);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Playwright's 30 s default is for a page on its own: here the playground's server shares the machine with the
    // suite's other worker, and moving its clock a week runs every timer of that week before it answers.
    page.setDefaultTimeout(90_000);
    // The add-in must make no outside calls: everything but the playground's own origin is refused.
    await page.route('**/*', (route) => (route.request().url().startsWith(url) ? route.continue() : route.abort()));
    await page.goto(url);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    return { browser, page };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** The sidebar's frame of the playground on `page`, once a panel is open and drawn (the document its address names). */
export async function sidebarOf(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('#sidebar-frame:visible');
  await page.waitForFunction(() => {
    const frame = document.getElementById('sidebar-frame') as HTMLIFrameElement | null;
    const shown = frame?.contentDocument;
    return Boolean(
      frame?.src &&
      shown?.location.pathname === new URL(frame.src).pathname &&
      shown.getElementById('app')?.childElementCount,
    );
  });
  return (await handle.contentFrame())!;
}

/**
 * Waits until the panel in `frame` has read the document's change stamp (sidebar/ui/follow-changes.ts): every change
 * made from then on shows in it at its next poll.
 */
export async function followingChanges(frame: Frame): Promise<void> {
  await frame.waitForSelector('body[data-seen-changes]', { state: 'attached' });
}

/**
 * Clicks the menu item of `handler` in the playground on `page`: the sidebar's frame it opens, never the panel open
 * before the click (each click opens a new sidebar, at a new address, once the page has read the state).
 */
export async function openPanelOn(page: Page, handler: string): Promise<Frame> {
  const before = await page.$eval('#sidebar-frame', (frame) => frame.getAttribute('src') ?? '');
  await page.click(`[data-handler="${handler}"]`);
  await page.waitForFunction((old) => {
    const address = document.getElementById('sidebar-frame')?.getAttribute('src');
    return Boolean(address && address !== old);
  }, before);
  return sidebarOf(page);
}

/**
 * Selects rows `first`..`last` of column A of the playground on `page`, opens the Research panel, waits for it to count
 * them and types the brief (`Research {Domain}` unless given): the panel's frame.
 */
export async function researchPanelOn(
  page: Page,
  first: number,
  last: number,
  brief = 'Research {Domain}',
): Promise<Frame> {
  await page.click(`td[data-cell="A${first}"]`);
  await page.click(`td[data-cell="A${last}"]`, { modifiers: ['Shift'] });
  const panel = await openPanelOn(page, 'showResearchPanel');
  const count = last - first + 1;
  await panel.waitForSelector(`#selection:has-text("${count} row${count === 1 ? '' : 's'} selected")`);
  await panel.fill('#brief', brief);
  return panel;
}

function stackOf(
  sandboxUrl: string,
  playground: Playground,
  browser: Browser,
  page: Page,
  stopAll: () => Promise<void>,
): Stack {
  return {
    sandboxUrl,
    control: new SandboxControl(sandboxUrl),
    playground,
    browser,
    page,
    ...pageSteps(page),
    close: stopAll,
  };
}

function pageSteps(page: Page): PageSteps {
  return {
    sidebar: () => sidebarOf(page),
    openPanel: (handler: string) => openPanelOn(page, handler),
    researchPanelOn: (first: number, last: number, brief?: string) => researchPanelOn(page, first, last, brief),
    async enrichSheet() {
      await page.click('td[data-cell="A1"]');
      const panel = await openPanelOn(page, 'showEnrichPanel');
      await panel.waitForSelector('#enrich-preview');
      await panel.click('#enrich-start');
      await panel.waitForSelector('#enrich-progress[aria-valuenow="100"]');
      return panel;
    },
    columnA: () =>
      page.$$eval('td[data-cell^="A"]', (tds) => tds.map((td) => (td.textContent ?? '').trim().toLowerCase())),
    async advanceTime(ms: number) {
      await page.evaluate(async (by) => {
        await fetch('/api/time', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ ms: by, jump: true }),
        });
      }, ms);
    },
    async finishTasks() {
      await page.click('[data-advance="3600000"]');
      await page.click('[data-advance="60000"]');
    },
    async screenshot(name: string) {
      const file = path.join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path: file });
      return file;
    },
    async setCell(sheet: string, a1: string, text: string) {
      await page.evaluate(
        async ([name, cell, value]) => {
          await fetch('/api/cell', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ sheet: name, a1: cell, text: value }),
          });
        },
        [sheet, a1, text],
      );
    },
  };
}
